//! The ns-2.35 differential suites (issue 14), one test binary: each module compares one
//! ported case or seed experiment with ns-2.35's output, checked in under `tests/data/ns2/`
//! with its source (`bench/ns2/seeds/README.md`). One binary instead of thirteen saves
//! their link steps in `.ci/run`; `cargo test -p qoslab-sim --test ns2_suite <module>::`
//! runs one of them.

#[path = "../ns2_rfc4828/mod.rs"]
mod ns2_rfc4828;

mod ared;
mod b1;
mod b1_tfrc;
mod b2;
mod b4;
mod friendly;
mod newreno;
mod red;
mod rfc2963;
mod rio;
mod rio_tables;
mod riocase;
mod tcp;
