//! Web-traffic pools: `[[web]]` tables (ns-2 `PagePool/WebTraf`-style; see `traffic::web`).
//!
//! ```toml
//! [[web]]
//! name = "web"                       # names the pool's random stream and its results
//! sessions = 100                     # required
//! clients = ["WC1", "WC2"]           # node names, or { name = "WC{i}", count = 10 }
//! servers = { name = "WS{i}", count = 10 }
//! pages_per_session = 10
//! objects_per_page = { dist = "constant", value = 10 }
//! inter_page = { dist = "exponential", mean = "1s" }      # times carry units
//! inter_object = { dist = "exponential", mean = "10ms" }
//! object_size = { dist = "pareto2", mean = 60, shape = 1.05 }   # in segments of tcp.mss
//! size_unit = "segments"             # or "bytes"
//! start = { from = "0s", to = "100s" }                    # sessions start uniformly in [from, to)
//! tcp = { variant = "reno", mss = "512B" }                # over [defaults.tcp]
//! request = "segment"                # ns-2 WebTraf's one-segment request first; or "none"
//! ```
//! Defaults are those of `WebTrafficSettings::default()` (Floyd's `web.tcl`), except that
//! the session-start window defaults to the whole run. Distributions: `constant` (value),
//! `exponential` (mean), `uniform` (lo, hi), `pareto` (mean, shape), `pareto2` (mean, shape:
//! ns-2's ParetoII). Every transfer needs a route both ways between each client and server.

use super::error::ErrorKind;
use super::flow;
use super::reader::{Field, Res, Tbl};
use super::spec::{NodeSpec, TcpSpec, WebSpec};
use crate::traffic::web::{
    Dist, RequestLeg, SessionStart, SizeUnit, WebTrafficParams, WebTrafficSettings,
};
use qoslab_algo::{ConfigError, Duration, Time};
use std::collections::HashMap;

pub(crate) const WEB_KEYS: &[&str] = &[
    "name",
    "sessions",
    "clients",
    "servers",
    "pages_per_session",
    "objects_per_page",
    "inter_page",
    "inter_object",
    "object_size",
    "size_unit",
    "start",
    "tcp",
    "request",
];

#[derive(Clone, Copy, PartialEq)]
enum Quantity {
    /// Durations with units; the model takes seconds.
    Time,
    /// Plain numbers (counts, sizes in units).
    Number,
}

fn number_or_time(f: Field<'_>, q: Quantity) -> Res<f64> {
    match q {
        Quantity::Number => f.number(),
        Quantity::Time => Ok(f.duration()?.as_secs_f64()),
    }
}

fn dist(f: Field<'_>, q: Quantity) -> Res<Dist> {
    let t = f.table()?;
    let kind =
        t.req("dist")?
            .choice(&["constant", "exponential", "uniform", "pareto", "pareto2"])?;
    let d = match kind {
        "constant" => {
            t.check_keys(&["dist", "value"], "a constant distribution")?;
            Dist::Constant {
                value: number_or_time(t.req("value")?, q)?,
            }
        }
        "exponential" => {
            t.check_keys(&["dist", "mean"], "an exponential distribution")?;
            Dist::Exponential {
                mean: number_or_time(t.req("mean")?, q)?,
            }
        }
        "uniform" => {
            t.check_keys(&["dist", "lo", "hi"], "a uniform distribution")?;
            Dist::Uniform {
                lo: number_or_time(t.req("lo")?, q)?,
                hi: number_or_time(t.req("hi")?, q)?,
            }
        }
        other => {
            t.check_keys(&["dist", "mean", "shape"], "a Pareto distribution")?;
            let mean = number_or_time(t.req("mean")?, q)?;
            let shape = t.req("shape")?.number()?;
            if other == "pareto" {
                Dist::Pareto { mean, shape }
            } else {
                Dist::ParetoII { mean, shape }
            }
        }
    };
    Ok(d)
}

/// A list of node names, or `{ name = "X{i}", count = n }`.
fn nodes(f: Field<'_>, index: &HashMap<String, usize>) -> Res<Vec<usize>> {
    let names: Vec<(String, Field<'_>)> = if f.is_table() {
        let t = f.clone().table()?;
        t.check_keys(&["name", "count"], "a node pattern")?;
        // The pattern is expanded here for i = 1..=count (not by the table's own instance).
        let pf = t.req("name")?;
        let pattern = match &pf.v.kind {
            super::value::Kind::Str(p) => p.clone(),
            _ => {
                return Err(pf.err(
                    ErrorKind::BadValue,
                    "expected a name pattern such as \"WC{i}\"",
                ))
            }
        };
        let n = t.req("count")?.uint(100_000)?;
        (1..=n)
            .map(|i| {
                let name = super::reader::expand_index(&pattern, i as i64)
                    .map_err(|e| f.err(ErrorKind::BadValue, e))?;
                Ok((name, f.clone()))
            })
            .collect::<Res<_>>()?
    } else {
        f.clone()
            .list()?
            .into_iter()
            .map(|x| Ok((x.clone().string()?, x)))
            .collect::<Res<_>>()?
    };
    if names.is_empty() {
        return Err(f.err(ErrorKind::BadValue, "needs at least one node"));
    }
    let mut out = Vec::with_capacity(names.len());
    for (name, nf) in names {
        match index.get(&name) {
            Some(&i) => out.push(i),
            None => return Err(nf.err(ErrorKind::Dangling, format!("no node named \"{name}\""))),
        }
    }
    Ok(out)
}

pub(crate) fn web(
    t: &Tbl<'_>,
    k: usize,
    index: &HashMap<String, usize>,
    all: &[NodeSpec],
    tcp_defaults: &Tbl<'_>,
    duration: Duration,
    reach: &mut dyn FnMut(usize, usize) -> bool,
) -> Res<WebSpec> {
    t.check_keys(WEB_KEYS, "a [[web]] pool")?;
    let name = match t.get("name") {
        Some(f) => f.string()?,
        None => format!("web{}", k + 1),
    };
    let clients_f = t.req("clients")?;
    let clients = nodes(clients_f.clone(), index)?;
    let servers = nodes(t.req("servers")?, index)?;
    for &c in &clients {
        for &s in &servers {
            if !reach(s, c) || !reach(c, s) {
                return Err(clients_f.err(
                    ErrorKind::Relation,
                    format!(
                        "no route both ways between server \"{}\" and client \"{}\"",
                        all[s].name, all[c].name
                    ),
                ));
            }
        }
    }
    let tcp: TcpSpec = match t.get("tcp") {
        Some(f) => {
            let tt = f.table()?;
            tt.check_keys(flow::TCP_KEYS, "a web pool's tcp table")?;
            flow::tcp(&tt.with_fallback(Some((tcp_defaults.entries, tcp_defaults.path.clone()))))?
        }
        None => flow::tcp(tcp_defaults)?,
    };
    let d = WebTrafficSettings::default();
    let size_unit = match t.get("size_unit") {
        Some(f) => match f.choice(&["segments", "bytes"])? {
            "bytes" => SizeUnit::Bytes,
            _ => SizeUnit::Segments { bytes: tcp.mss },
        },
        None => SizeUnit::Segments { bytes: tcp.mss },
    };
    let session_start = match t.get("start") {
        Some(f) => {
            let st = f.table()?;
            st.check_keys(&["from", "to"], "a session-start window")?;
            let from = st.req("from")?.duration()?;
            let to = st.req("to")?.duration()?;
            SessionStart::Uniform {
                from: Time::ZERO + from,
                to: Time::ZERO + to,
            }
        }
        None => SessionStart::Uniform {
            from: Time::ZERO,
            to: Time::ZERO + duration,
        },
    };
    let sessions_f = t.req("sessions")?;
    let settings = WebTrafficSettings {
        sessions: sessions_f.clone().uint(u32::MAX as u64)? as u32,
        pages_per_session: t
            .get("pages_per_session")
            .map_or(Ok(d.pages_per_session as u64), |f| f.uint(u32::MAX as u64))?
            as u32,
        inter_page: t
            .get("inter_page")
            .map_or(Ok(d.inter_page), |f| dist(f, Quantity::Time))?,
        objects_per_page: t
            .get("objects_per_page")
            .map_or(Ok(d.objects_per_page), |f| dist(f, Quantity::Number))?,
        inter_object: t
            .get("inter_object")
            .map_or(Ok(d.inter_object), |f| dist(f, Quantity::Time))?,
        object_size: t
            .get("object_size")
            .map_or(Ok(d.object_size), |f| dist(f, Quantity::Number))?,
        size_unit,
        session_start,
        clients: clients.len() as u32,
        servers: servers.len() as u32,
        request: match t.get("request") {
            Some(f) => match f.choice(&["segment", "none"])? {
                "none" => RequestLeg::None,
                _ => RequestLeg::Segment,
            },
            None => d.request,
        },
    };
    let params = WebTrafficParams::new(settings).map_err(|e| {
        // Located at the key the broken rule concerns (issue 12: every web-pool error used
        // to be reported at `sessions`).
        let key = match &e {
            ConfigError::OutOfRange { param, .. } => match *param {
                "size_unit.bytes" => "size_unit",
                p => p,
            },
            ConfigError::Relation { rule, detail, .. } => {
                if rule.starts_with("session_start") {
                    "start"
                } else {
                    // "uniform lo <= hi": the detail starts with the parameter's name.
                    detail.split(':').next().unwrap_or("")
                }
            }
        };
        let kind = match &e {
            ConfigError::OutOfRange { .. } => ErrorKind::BadValue,
            ConfigError::Relation { .. } => ErrorKind::Relation,
        };
        match t.get(key) {
            Some(f) => f.err(kind, e.to_string()),
            None if key == "clients" => clients_f.err(kind, e.to_string()),
            None => t.err(kind, e.to_string()),
        }
    })?;
    Ok(WebSpec {
        name,
        params,
        clients,
        servers,
        tcp,
    })
}
