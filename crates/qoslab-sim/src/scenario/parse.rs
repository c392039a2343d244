//! TOML text → validated [`Scenario`]: nodes, links, flows, output, and the rules between
//! them (names, references, reachability). Queues are read in `queue.rs`, flow kinds in
//! `flow.rs`, quantities in `units.rs`; the format is documented in `mod.rs`.

use std::collections::HashMap;
use std::path::Path;

use qoslab_algo::Duration;

use super::conditioner;
use super::error::{line_col, ErrorKind, Inner, ScenarioError};
use super::flow;
use super::queue;
use super::reach::Reach;
use super::reader::{close_enough, edit_distance, instances, Cx, Fallback, Field, Res, Tbl};
use super::spec::{
    FlowKind, FlowSpec, LinkSpec, NodeKind, NodeSpec, OutputSpec, Scenario, WebSpec,
};
use super::units::show;
use super::value::{parse_document, Key, Kind, Val};
use super::web;

const TOP_KEYS: &[&str] = &[
    "name", "seed", "duration", "warmup", "output", "node", "link", "flow", "web", "defaults",
];
/// The most time-series rows (samples × series) a run may hold in memory (about 1 GB of
/// CSV at the widest rows); `sample_interval` is refused before the run beyond it.
pub const MAX_SERIES_ROWS: u64 = 10_000_000;

const OUTPUT_KEYS: &[&str] = &[
    "sample_interval",
    "monitor",
    "tcp_series",
    "tfrc_series",
    "delay_series",
];
const NODE_KEYS: &[&str] = &["name", "kind", "count"];
const LINK_KEYS: &[&str] = &[
    "from",
    "to",
    "count",
    "duplex",
    "rate",
    "delay",
    "queue",
    "reverse_queue",
    "loss",
    "reverse_loss",
    "conditioner",
    "reverse_conditioner",
];
const LINK_DEFAULT_KEYS: &[&str] = &[
    "duplex",
    "rate",
    "delay",
    "queue",
    "reverse_queue",
    "loss",
    "reverse_loss",
];
const FLOW_COMMON_KEYS: &[&str] = &[
    "name",
    "count",
    "src",
    "dst",
    "kind",
    "start",
    "start_jitter",
    "stop",
];
const DEFAULTS_KEYS: &[&str] = &["tcp", "cbr", "poisson", "tfrc", "link"];

/// Reads and validates a scenario file. `file` names it in error messages.
pub fn parse_str(text: &str, file: &str) -> Result<Scenario, ScenarioError> {
    with_root_table(text, file, |root| Parser { cx: root.cx }.scenario(root))
}

/// Parses `text` as TOML (a syntax error is reported with its line and column) and hands
/// its root table to `f`: the common start of scenario and chain files.
pub(crate) fn with_root<T>(
    text: &str,
    file: &str,
    f: impl FnOnce(&Cx<'_>, &[(Key, Val)]) -> Result<T, ScenarioError>,
) -> Result<T, ScenarioError> {
    let doc = parse_document(text).map_err(|(message, span)| {
        ScenarioError::new(Inner {
            kind: ErrorKind::Syntax,
            file: file.to_string(),
            pos: Some(line_col(text, span.map_or(0, |s| s.start))),
            path: "".into(),
            value: None,
            instance: None,
            message: format!("invalid TOML: {}", message.trim_end()),
        })
    })?;
    let cx = Cx { file, src: text };
    let Kind::Table(entries) = &doc.kind else {
        // `toml` always returns a table for a document; keep the invariant visible anyway.
        return Err(cx.error(
            ErrorKind::Syntax,
            &(0..0),
            "",
            None,
            None,
            "not a TOML table",
        ));
    };
    f(&cx, entries)
}

/// [`with_root`] with the root handed over as a located table (key path "").
pub(crate) fn with_root_table<T>(
    text: &str,
    file: &str,
    f: impl FnOnce(&Tbl<'_>) -> Result<T, ScenarioError>,
) -> Result<T, ScenarioError> {
    with_root(text, file, |cx, entries| {
        f(&Tbl {
            cx,
            entries,
            span: 0..0,
            path: "".into(),
            inst: None,
            fallback: None,
        })
    })
}

/// Reads `path` and hands its text and shown name to `parse`: the one I/O path of every
/// kind of scenario file (IP, PCN, ATM).
pub(crate) fn load_with<T>(
    path: &Path,
    parse: impl FnOnce(&str, &str) -> Result<T, ScenarioError>,
) -> Result<T, ScenarioError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| ScenarioError::io(&shown, &e))?;
    parse(&text, &shown)
}

/// A run's `duration` (required, > 0) and `warmup` (default 0, below the duration): the
/// window every kind of scenario has.
pub(crate) fn run_window(root: &Tbl<'_>) -> Res<(Duration, Duration)> {
    let dur_f = root.req("duration")?;
    let duration = dur_f.clone().duration()?;
    if duration == Duration::ZERO {
        return Err(dur_f.err(ErrorKind::BadValue, "must be > 0"));
    }
    let warmup = match root.get("warmup") {
        None => Duration::ZERO,
        Some(f) => {
            let w = f.clone().duration()?;
            if w >= duration {
                return Err(f.err(
                    ErrorKind::Relation,
                    format!(
                        "must be below duration = {} (statistics cover [warmup, duration))",
                        show(duration)
                    ),
                ));
            }
            w
        }
    };
    Ok((duration, warmup))
}

/// Reads a scenario file from disk.
pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
    load_with(path, parse_str)
}

struct Parser<'a> {
    cx: &'a Cx<'a>,
}

/// A `[defaults.*]` table: its entries and its key path.
type Defaults<'a> = Fallback<'a>;

struct AllDefaults<'a> {
    tcp: Defaults<'a>,
    tfrc: Defaults<'a>,
    cbr: Defaults<'a>,
    poisson: Defaults<'a>,
    link: Defaults<'a>,
}

/// Where a name was first defined, for "defined twice" messages.
struct Named {
    index: usize,
    /// Byte offset of the definition; its line is computed only when a message needs it
    /// (`line_col` scans the file: per definition it made validation quadratic).
    offset: usize,
}

impl<'a> Parser<'a> {
    fn scenario(&self, root: &Tbl<'a>) -> Res<Scenario> {
        root.check_keys(TOP_KEYS, "the top level")?;

        let name = match root.get("name") {
            Some(f) => nonempty(f)?,
            None => file_stem(self.cx.file),
        };
        let seed = root.get("seed").map_or(Ok(1), |f| f.uint(u64::MAX))?;
        let (duration, warmup) = run_window(root)?;
        let defaults = self.defaults(root)?;
        let (nodes, node_index) = self.nodes(root)?;
        let links = self.links(root, &nodes, &node_index, &defaults)?;
        let flows = self.flows(root, &nodes, &node_index, &links, &defaults)?;
        let webs = self.webs(root, &nodes, &node_index, &links, &defaults, duration)?;
        let output = self.output(root, &links, &flows, duration)?;
        Ok(Scenario {
            name,
            seed,
            duration,
            warmup,
            nodes,
            links,
            flows,
            webs,
            output,
        })
    }

    /// `[[web]]` pools.
    fn webs(
        &self,
        root: &Tbl<'a>,
        nodes: &[NodeSpec],
        node_index: &HashMap<String, Named>,
        links: &[LinkSpec],
        defaults: &AllDefaults<'a>,
        duration: Duration,
    ) -> Res<Vec<WebSpec>> {
        let index: HashMap<String, usize> = node_index
            .iter()
            .map(|(k, v)| (k.clone(), v.index))
            .collect();
        let mut reach_of = Reach::new(nodes.len(), links.iter().map(|l| (l.from, l.to)));
        let mut reach = |a: usize, b: usize| reach_of.reachable(a, b);
        let tcp_defaults = Tbl {
            cx: self.cx,
            entries: defaults.tcp.as_ref().map_or(&[][..], |(e, _)| *e),
            span: 0..0,
            path: "defaults.tcp".into(),
            inst: None,
            fallback: None,
        };
        let mut out = Vec::new();
        let mut names = std::collections::HashSet::new();
        for (k, t) in self.table_list(root, "web")?.into_iter().enumerate() {
            let t = Tbl {
                path: format!("web[{k}]").into(),
                ..t
            };
            let w = web::web(&t, k, &index, nodes, &tcp_defaults, duration, &mut reach)?;
            if !names.insert(w.name.clone()) {
                return Err(t.err(
                    ErrorKind::Relation,
                    format!("duplicate web pool name \"{}\"", w.name),
                ));
            }
            out.push(w);
        }
        Ok(out)
    }

    /// The list under `key` (`[[node]]`, ...), as tables; absent = empty.
    fn table_list(&self, root: &Tbl<'a>, key: &str) -> Res<Vec<Tbl<'a>>> {
        let Some(f) = root.get(key) else {
            return Ok(Vec::new());
        };
        if f.is_table() {
            return Err(f.err(
                ErrorKind::BadValue,
                format!(
                    "expected a list of tables: write [[{key}]] (double brackets) for each {key}"
                ),
            ));
        }
        f.list()?.into_iter().map(Field::table).collect()
    }

    fn defaults(&self, root: &Tbl<'a>) -> Res<AllDefaults<'a>> {
        let mut d = AllDefaults {
            tcp: None,
            tfrc: None,
            cbr: None,
            poisson: None,
            link: None,
        };
        let Some(f) = root.get("defaults") else {
            return Ok(d);
        };
        let t = f.table()?;
        t.check_keys(DEFAULTS_KEYS, "[defaults]")?;
        for (key, slot) in [
            ("tcp", &mut d.tcp),
            ("tfrc", &mut d.tfrc),
            ("cbr", &mut d.cbr),
            ("poisson", &mut d.poisson),
            ("link", &mut d.link),
        ] {
            let Some(sub) = t.get(key) else { continue };
            let st = sub.table()?;
            // Check the defaults now, so a bad default is reported even if nothing uses it.
            match key {
                "tcp" => {
                    st.check_keys(flow::TCP_KEYS, "[defaults.tcp]")?;
                    flow::tcp(&st)?;
                }
                "tfrc" => {
                    st.check_keys(flow::TFRC_KEYS, "[defaults.tfrc]")?;
                }
                "link" => {
                    st.check_keys(LINK_DEFAULT_KEYS, "[defaults.link]")?;
                    self.check_link_defaults(&st)?;
                }
                _ => {
                    st.check_keys(flow::RATE_KEYS, &format!("[defaults.{key}]"))?;
                    flow::check_rate_defaults(&st)?;
                }
            }
            *slot = Some((st.entries, st.path.clone()));
        }
        Ok(d)
    }

    fn check_link_defaults(&self, t: &Tbl<'a>) -> Res<()> {
        if let Some(f) = t.get("duplex") {
            f.bool()?;
        }
        if let Some(f) = t.get("rate") {
            positive_rate(f)?;
        }
        if let Some(f) = t.get("delay") {
            f.duration()?;
        }
        for key in ["queue", "reverse_queue"] {
            if let Some(f) = t.get(key) {
                queue::queue(f)?;
            }
        }
        for key in ["loss", "reverse_loss"] {
            if let Some(f) = t.get(key) {
                queue::loss(f)?;
            }
        }
        Ok(())
    }

    /// Records the definition of `what` named `name` (field `name_f`) at table index `index`;
    /// a second definition of the same name is refused, naming the line of the first.
    fn define(
        &self,
        names: &mut HashMap<String, Named>,
        what: &str,
        name: &str,
        name_f: &Field<'a>,
        index: usize,
    ) -> Res<()> {
        if let Some(prev) = names.get(name) {
            return Err(name_f.err(
                ErrorKind::Relation,
                format!(
                    "duplicate {what} name (first defined at line {})",
                    line_col(self.cx.src, prev.offset).0
                ),
            ));
        }
        let offset = name_f.v.span.start;
        names.insert(name.to_string(), Named { index, offset });
        Ok(())
    }

    fn nodes(&self, root: &Tbl<'a>) -> Res<(Vec<NodeSpec>, HashMap<String, Named>)> {
        let mut nodes = Vec::new();
        let mut index: HashMap<String, Named> = HashMap::new();
        for (k, t) in self.table_list(root, "node")?.into_iter().enumerate() {
            let t = Tbl {
                path: format!("node[{k}]").into(),
                ..t
            };
            t.check_keys(NODE_KEYS, "a [[node]]")?;
            for inst in instances(t.count()?) {
                let t = t.with_inst(inst);
                let name_f = t.req("name")?;
                let name = node_name(name_f.clone())?;
                let kind = match t.get("kind") {
                    Some(f) => match f.choice(&["host", "router"])? {
                        "host" => NodeKind::Host,
                        _ => NodeKind::Router,
                    },
                    None => NodeKind::Host,
                };
                self.define(&mut index, "node", &name, &name_f, nodes.len())?;
                nodes.push(NodeSpec { name, kind });
            }
        }
        Ok((nodes, index))
    }

    /// A node reference (`from`, `to`, `src`, `dst`).
    fn node_ref(&self, f: Field<'a>, index: &HashMap<String, Named>) -> Res<usize> {
        let name = f.clone().string()?;
        match index.get(&name) {
            Some(n) => Ok(n.index),
            None => {
                let mut msg = "no node with this name".to_string();
                if let Some(close) = closest(&name, index.keys().map(String::as_str)) {
                    msg.push_str(&format!(" (did you mean \"{close}\"?)"));
                }
                Err(f.err(ErrorKind::Dangling, msg))
            }
        }
    }

    fn links(
        &self,
        root: &Tbl<'a>,
        nodes: &[NodeSpec],
        node_index: &HashMap<String, Named>,
        defaults: &AllDefaults<'a>,
    ) -> Res<Vec<LinkSpec>> {
        let mut links: Vec<LinkSpec> = Vec::new();
        let mut names: HashMap<String, Named> = HashMap::new();
        for (k, t) in self.table_list(root, "link")?.into_iter().enumerate() {
            let t = Tbl {
                path: format!("link[{k}]").into(),
                ..t
            }
            .with_fallback(defaults.link.clone());
            t.check_keys(LINK_KEYS, "a [[link]]")?;
            for inst in instances(t.count()?) {
                let t = t.with_inst(inst);
                let from_f = t.req("from")?;
                let to_f = t.req("to")?;
                let from = self.node_ref(from_f.clone(), node_index)?;
                let to = self.node_ref(to_f.clone(), node_index)?;
                if from == to {
                    return Err(to_f.err(
                        ErrorKind::Relation,
                        "a link cannot connect a node to itself",
                    ));
                }
                let duplex = t.get("duplex").map_or(Ok(true), Field::bool)?;
                let rate = positive_rate(t.req("rate")?)?;
                let delay = t.req("delay")?.duration()?;
                let queue = t
                    .get("queue")
                    .map_or_else(|| Ok(queue::default_queue()), queue::queue)?;
                // One validation path (issue 12): the engine's own construction of the
                // queue discipline is tried here, located at the queue's table.
                let check_aqm = |key: &str, q: &super::spec::QueueSpec| -> Res<()> {
                    match (crate::sim::build_aqm(q, rate), t.get(key)) {
                        (Ok(_), _) => Ok(()),
                        (Err(e), Some(f)) => Err(flow::locate_config_error(&f.table()?, &e)),
                        (Err(e), None) => Err(flow::locate_config_error(&t, &e)),
                    }
                };
                check_aqm("queue", &queue)?;
                let loss = t
                    .get("loss")
                    .map_or(Ok((None, false, false)), queue::loss)?;
                let cond = t
                    .get("conditioner")
                    .map(|f| conditioner::conditioner(f, rate))
                    .transpose()?;
                let mut dirs = vec![(from, to, queue.clone(), loss.clone(), cond)];
                if duplex {
                    let rq = t.get("reverse_queue").map_or(Ok(queue), queue::queue)?;
                    check_aqm("reverse_queue", &rq)?;
                    let rl = t.get("reverse_loss").map_or(Ok(loss), queue::loss)?;
                    let rc = t
                        .get("reverse_conditioner")
                        .map(|f| conditioner::conditioner(f, rate))
                        .transpose()?;
                    dirs.push((to, from, rq, rl, rc));
                } else {
                    for key in ["reverse_queue", "reverse_loss", "reverse_conditioner"] {
                        if let Some(f) = t.get(key) {
                            return Err(f.err(
                                ErrorKind::Relation,
                                "only for duplex links (duplex = false here)",
                            ));
                        }
                    }
                }
                let line = from_f.v.span.start;
                for (a, b, queue, loss, conditioner) in dirs {
                    let name = format!("{}->{}", nodes[a].name, nodes[b].name);
                    if let Some(prev) = names.get(&name) {
                        return Err(to_f.err(
                            ErrorKind::Relation,
                            format!(
                                "link {name} is defined twice (first at line {})",
                                line_col(self.cx.src, prev.offset).0
                            ),
                        ));
                    }
                    names.insert(
                        name.clone(),
                        Named {
                            index: links.len(),
                            offset: line,
                        },
                    );
                    links.push(LinkSpec {
                        name,
                        from: a,
                        to: b,
                        rate,
                        delay,
                        queue,
                        loss: loss.0,
                        loss_marks_ect: loss.1,
                        loss_at_entry: loss.2,
                        conditioner,
                    });
                }
            }
        }
        Ok(links)
    }

    fn flows(
        &self,
        root: &Tbl<'a>,
        nodes: &[NodeSpec],
        node_index: &HashMap<String, Named>,
        links: &[LinkSpec],
        defaults: &AllDefaults<'a>,
    ) -> Res<Vec<FlowSpec>> {
        let mut reach = Reach::new(nodes.len(), links.iter().map(|l| (l.from, l.to)));
        let mut flows = Vec::new();
        let mut names: HashMap<String, Named> = HashMap::new();
        for (k, t) in self.table_list(root, "flow")?.into_iter().enumerate() {
            let t = Tbl {
                path: format!("flow[{k}]").into(),
                ..t
            };
            let kind = match t.get("kind") {
                Some(f) if matches!(f.v.kind, Kind::Array(_)) => {
                    return Err(f.err(
                        ErrorKind::BadValue,
                        "must be one kind for all instances (it decides the flow's keys)",
                    ))
                }
                Some(f) => f.with_no_inst().choice(flow::KINDS)?,
                None => "tcp",
            };
            let kind_keys = flow::kind_keys(kind);
            let allowed: Vec<&str> = FLOW_COMMON_KEYS.iter().chain(kind_keys).copied().collect();
            t.check_keys(&allowed, &format!("a {kind} [[flow]]"))?;
            let fallback = match kind {
                "tcp" => defaults.tcp.clone(),
                "tfrc" => defaults.tfrc.clone(),
                "cbr" => defaults.cbr.clone(),
                _ => defaults.poisson.clone(),
            };
            let t = t.with_fallback(fallback);
            for inst in instances(t.count()?) {
                let t = t.with_inst(inst);
                let name_f = t.req("name")?;
                let name = nonempty(name_f.clone())?;
                self.define(&mut names, "flow", &name, &name_f, flows.len())?;
                let src = self.node_ref(t.req("src")?, node_index)?;
                let dst_f = t.req("dst")?;
                let dst = self.node_ref(dst_f.clone(), node_index)?;
                if src == dst {
                    return Err(
                        dst_f.err(ErrorKind::Relation, "a flow's dst must differ from its src")
                    );
                }
                // Packets must reach dst; TCP's ACKs must also find their way back.
                if !reach.reachable(src, dst) {
                    return Err(dst_f.err(
                        ErrorKind::Relation,
                        format!(
                            "unreachable from src \"{}\": no path of links leads there",
                            nodes[src].name
                        ),
                    ));
                }
                if (kind == "tcp" || kind == "tfrc") && !reach.reachable(dst, src) {
                    return Err(dst_f.err(
                        ErrorKind::Relation,
                        format!(
                            "no path of links back to src \"{}\" for the acknowledgements/feedback (add the reverse direction)",
                            nodes[src].name
                        ),
                    ));
                }
                let start = t.get("start").map_or(Ok(Duration::ZERO), Field::duration)?;
                let start_jitter = t
                    .get("start_jitter")
                    .map_or(Ok(Duration::ZERO), Field::duration)?;
                let stop = match t.get("stop") {
                    None => None,
                    Some(f) => {
                        let s = f.clone().duration()?;
                        if s <= start {
                            return Err(f.err(
                                ErrorKind::Relation,
                                format!("must be after start = {}", show(start)),
                            ));
                        }
                        Some(s)
                    }
                };
                let kind = match kind {
                    "tcp" => FlowKind::Tcp(flow::tcp(&t)?),
                    "tfrc" => {
                        let spec = flow::tfrc(&t)?;
                        // The engine's own construction, tried at read time (issue 12).
                        crate::sim::tfrc_pair(&spec, qoslab_algo::Time::ZERO)
                            .map_err(|e| flow::locate_config_error(&t, &e))?;
                        FlowKind::Tfrc(spec)
                    }
                    other => flow::rate_kind(&t, other)?,
                };
                flows.push(FlowSpec {
                    name,
                    src,
                    dst,
                    start,
                    start_jitter,
                    stop,
                    kind,
                });
            }
        }
        Ok(flows)
    }

    fn output(
        &self,
        root: &Tbl<'a>,
        links: &[LinkSpec],
        flows: &[FlowSpec],
        duration: Duration,
    ) -> Res<OutputSpec> {
        let mut out = OutputSpec {
            sample_interval: None,
            monitor: Vec::new(),
            tcp_series: false,
            tfrc_series: false,
            delay_series: false,
        };
        let Some(f) = root.get("output") else {
            return Ok(out);
        };
        let t = f.table()?;
        t.check_keys(OUTPUT_KEYS, "[output]")?;
        if let Some(f) = t.get("sample_interval") {
            let d = f.clone().duration()?;
            if d == Duration::ZERO {
                return Err(f.err(ErrorKind::BadValue, "must be > 0"));
            }
            out.sample_interval = Some(d);
        }
        if let Some(f) = t.get("tcp_series") {
            out.tcp_series = f.clone().bool()?;
            if out.tcp_series && out.sample_interval.is_none() {
                return Err(f.err(
                    ErrorKind::Relation,
                    "needs sample_interval (the time series' step)",
                ));
            }
        }
        if let Some(f) = t.get("delay_series") {
            out.delay_series = f.clone().bool()?;
            if out.delay_series && out.sample_interval.is_none() {
                return Err(f.err(
                    ErrorKind::Relation,
                    "needs sample_interval (the time series' step)",
                ));
            }
        }
        if let Some(f) = t.get("tfrc_series") {
            out.tfrc_series = f.clone().bool()?;
            if out.tfrc_series && !flows.iter().any(|x| matches!(x.kind, FlowKind::Tfrc(_))) {
                return Err(f.err(
                    ErrorKind::Relation,
                    "there is no flow of kind \"tfrc\" to record",
                ));
            }
        }
        if let Some(f) = t.get("monitor") {
            for item in f.list()? {
                let name = item.clone().string()?;
                let Some(i) = links.iter().position(|l| l.name == name) else {
                    let mut msg =
                        "no link with this name (links are named \"A->B\", one per direction)"
                            .to_string();
                    if let Some(close) = closest(&name, links.iter().map(|l| l.name.as_str())) {
                        msg.push_str(&format!("; did you mean \"{close}\"?"));
                    }
                    return Err(item.err(ErrorKind::Dangling, msg));
                };
                if out.monitor.contains(&i) {
                    return Err(item.err(ErrorKind::Relation, "listed twice"));
                }
                out.monitor.push(i);
            }
        }
        if let (Some(iv), Some(f)) = (out.sample_interval, t.get("sample_interval")) {
            // Series are held in memory until the run ends: refuse, before running, a
            // setting whose output cannot fit (issue 12: 1 ns over 30 s grew to GBs and
            // aborted). One row per sample per series: each link (monitored, or every link),
            // each flow, and each TCP flow again with `tcp_series`.
            let samples = duration.as_nanos() / iv.as_nanos().max(1) + 1;
            let links_n = if out.monitor.is_empty() {
                links.len()
            } else {
                out.monitor.len()
            };
            let tcp_n = if out.tcp_series {
                flows
                    .iter()
                    .filter(|x| matches!(x.kind, FlowKind::Tcp(_)))
                    .count()
            } else {
                0
            };
            let delay_n = if out.delay_series { flows.len() } else { 0 };
            let per_sample = (links_n + flows.len() + tcp_n + delay_n).max(1) as u64;
            let rows = samples.saturating_mul(per_sample);
            if rows > MAX_SERIES_ROWS {
                return Err(f.err(
                    ErrorKind::Relation,
                    format!(
                        "{} samples x {per_sample} series = {rows} rows exceeds the limit of {MAX_SERIES_ROWS} \
                         time-series rows held in memory; use a longer interval (at least {})",
                        samples,
                        show(Duration(duration.as_nanos().saturating_mul(per_sample) / MAX_SERIES_ROWS + 1))
                    ),
                ));
            }
        }
        Ok(out)
    }
}

fn positive_rate(f: Field<'_>) -> Res<qoslab_algo::Rate> {
    let r = f.clone().rate()?;
    if r.bps() == 0 {
        return Err(f.err(ErrorKind::BadValue, "must be > 0"));
    }
    Ok(r)
}

fn nonempty(f: Field<'_>) -> Res<String> {
    let s = f.clone().string()?;
    if s.trim().is_empty() {
        return Err(f.err(ErrorKind::BadValue, "must not be empty"));
    }
    Ok(s)
}

/// Node names: non-empty, no spaces, no braces (a leftover placeholder), no `->` (it
/// separates the ends of a link name).
fn node_name(f: Field<'_>) -> Res<String> {
    let s = nonempty(f.clone())?;
    if s.contains("->") || s.contains(char::is_whitespace) || s.contains(['{', '}']) {
        return Err(f.err(
            ErrorKind::BadValue,
            "a node name must not contain spaces, braces or \"->\"",
        ));
    }
    Ok(s)
}

fn file_stem(file: &str) -> String {
    Path::new(file)
        .file_stem()
        .and_then(|s| s.to_str())
        .filter(|s| !s.is_empty())
        .unwrap_or("scenario")
        .to_string()
}

/// The name in `names` closest to `name`, if close enough to be a typo of it.
fn closest<'n>(name: &str, names: impl Iterator<Item = &'n str>) -> Option<&'n str> {
    let candidates: Vec<&str> = names.collect();
    candidates
        .iter()
        .map(|c| (edit_distance(name, c), *c))
        .filter(|(d, _)| *d <= close_enough(name))
        .min_by_key(|(d, c)| (*d, *c))
        .map(|(_, c)| c)
}
