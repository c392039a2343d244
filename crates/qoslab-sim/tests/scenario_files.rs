//! The scenario files shipped in `scenarios/` parse, and say what their comments say.

use std::path::PathBuf;

use qoslab_sim::scenario::load;

fn repo_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios").join(name)
}

#[test]
fn dumbbell_is_the_rio_seed_fig1() {
    let s = load(&repo_file("dumbbell.toml")).unwrap_or_else(|e| panic!("{e}"));
    println!("{}", serde_json::to_string(&s).unwrap());
}
