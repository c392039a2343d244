//! Queue and loss tables of a link: `queue = { kind = "red", ... }`, `loss = { packet = p }`.
//!
//! The loss table: `packet = p` (each packet lost with probability p, RFC 4828 App. B.1)
//! or `byte = b` (a packet of N wire bytes with 1 − (1 − b)^N, App. B.2), and optionally
//! `ecn = true | false` (default false): when true, a hit on an ECN-capable (ECT) packet
//! sets CE and the packet is delivered instead of lost ("we configure the router to
//! randomly drop or mark packets at a specified rate", App. B.1); Not-ECT packets are still
//! lost (RFC 3168 §5: only ECN-capable packets are marked). Or scripted drops,
//! `drop_list = [13, 25, 27]`: the positions (from 0, strictly increasing) of the packets of
//! each flow entering the link that are dropped, as ns-2's `ErrorModel/List`
//! ([`LossSpec::DropList`]).
//!
//! Rules refused here, each from its source:
//! * RED (Floyd & Jacobson 1993, §4 and §11): `min_th < max_th` (the drop probability
//!   divides by `max_th - min_th`), `0 < max_p <= 1` (a probability; zero would never drop
//!   early), `0 < w_q <= 1` (the EWMA weight; zero never moves the average, one is the
//!   instantaneous queue, as in the RIO seed §3.C "prompt feedback").
//! * RIO (Clark & Fang 1998; three colours: RFC 2963 App. A): the same rules for each
//!   precedence, and 2 (In/Out) or 3 (green/yellow/red) precedences.
//! * Loss (RFC 4828 App. B): probabilities in [0, 1]. A drop list: non-empty, integers
//!   >= 0, strictly increasing (ns-2 refuses a duplicate entry), not with `ecn`.
//! * A limit of zero (a queue that can hold nothing is not a queue).
//!
//! Not refused (open choices): RIO thresholds of a less-preferred colour above those of a
//! more-preferred one (no source calls it impossible; RFC 2963 App. A even overlaps them),
//! RED `max_th` above the queue limit, `max_p` of Adaptive RED outside [0.01, 0.5] (the
//! adaptation brings it back into range).

use super::error::ErrorKind;
use super::reader::{Field, Res, Tbl};
use super::spec::{
    DropPositions, Limit, LossSpec, QueueSpec, QueueUnit, RedSpec, RioCoupling, RioPrecedenceSpec,
};
use super::units;
use qoslab_algo::Color;

/// ns-2's `Queue set limit_ 50`: the limit of a queue that does not say.
pub(crate) const DEFAULT_LIMIT: Limit = Limit::Packets(50);
/// ns-2's `Queue/RED set mean_pktsize_ 500`.
const DEFAULT_MEAN_PKT_SIZE: u32 = 500;
/// ns-2's `linterm_ 10`, i.e. max_p = 1/10.
const DEFAULT_MAX_P: f64 = 0.1;
/// Floyd & Jacobson 1993 §11 (and ns-2's `q_weight_`): w_q = 0.002.
const DEFAULT_W_Q: f64 = 0.002;

const KINDS: &[&str] = &["drop-tail", "red", "rio"];
const DROP_TAIL_KEYS: &[&str] = &["kind", "limit"];
const RED_KEYS: &[&str] = &[
    "kind",
    "limit",
    "min_th",
    "max_th",
    "max_p",
    "w_q",
    "gentle",
    "wait",
    "byte_mode",
    "queue_unit",
    "mean_pkt_size",
    "ecn",
    "adaptive",
    "ns2_use_mark_p",
    "ns2_gentle_initial_max_p",
];
const RIO_KEYS: &[&str] = &[
    "kind",
    "limit",
    "precedences",
    "in",
    "out",
    "green",
    "yellow",
    "red",
    "coupling",
    "gentle",
    "queue_unit",
    "mean_pkt_size",
    "wait",
    "ns2_avg_on_in_arrivals",
    "ns2_out_forced_keeps_count",
];
const PRECEDENCE_KEYS: &[&str] = &["min_th", "max_th", "max_p", "w_q"];

/// The queue when a link gives none: drop-tail, 50 packets (ns-2's default).
pub(crate) fn default_queue() -> QueueSpec {
    QueueSpec::DropTail {
        limit: DEFAULT_LIMIT,
    }
}

/// `queue = { kind = ..., ... }`; `kind` defaults to `"drop-tail"`.
pub(crate) fn queue(f: Field<'_>) -> Res<QueueSpec> {
    let t = f.table()?;
    let kind = match t.get("kind") {
        Some(k) => k.choice(KINDS)?,
        None => "drop-tail",
    };
    let limit = match t.get("limit") {
        Some(l) => limit(l)?,
        None => DEFAULT_LIMIT,
    };
    match kind {
        "drop-tail" => {
            t.check_keys(DROP_TAIL_KEYS, "a drop-tail queue")?;
            Ok(QueueSpec::DropTail { limit })
        }
        "red" => {
            t.check_keys(RED_KEYS, "a red queue")?;
            Ok(QueueSpec::Red {
                limit,
                red: red(&t)?,
            })
        }
        _ => {
            t.check_keys(RIO_KEYS, "a rio queue")?;
            rio(&t, limit)
        }
    }
}

/// `"300p"` (packets) or a size (`"64KB"`); never zero.
fn limit(f: Field<'_>) -> Res<Limit> {
    let f = f.per_instance()?;
    let text = match &f.v.kind {
        super::value::Kind::Str(_) => f.clone().string()?,
        _ => {
            return Err(f.err(
                ErrorKind::BadValue,
                "a limit needs a unit: \"300p\" for packets or a size such as \"64KB\"",
            ))
        }
    };
    let l = units::parse_limit(&text).map_err(|e| f.err(ErrorKind::BadValue, format!("{e}")))?;
    if matches!(l, Limit::Packets(0) | Limit::Bytes(0)) {
        return Err(f.err(
            ErrorKind::BadValue,
            "must be > 0 (a queue that holds nothing)",
        ));
    }
    Ok(l)
}

fn queue_unit(t: &Tbl<'_>) -> Res<QueueUnit> {
    Ok(match t.get("queue_unit") {
        Some(f) => match f.choice(&["packets", "bytes"])? {
            "packets" => QueueUnit::Packets,
            _ => QueueUnit::Bytes,
        },
        None => QueueUnit::Packets,
    })
}

fn mean_pkt_size(t: &Tbl<'_>) -> Res<u32> {
    match t.get("mean_pkt_size") {
        Some(f) => f.size_u32(1),
        None => Ok(DEFAULT_MEAN_PKT_SIZE),
    }
}

fn opt_bool(t: &Tbl<'_>, key: &str, default: bool) -> Res<bool> {
    t.get(key).map_or(Ok(default), Field::bool)
}

/// A threshold in the queue's unit: a number, `"60p"` (packets) or a size (bytes).
fn threshold(f: Field<'_>, unit: QueueUnit) -> Res<f64> {
    let f = f.per_instance()?;
    let x = match (&f.v.kind, unit) {
        (super::value::Kind::Str(_), QueueUnit::Packets) => {
            let s = f.clone().string()?;
            match units::parse_packets_f64(&s) {
                Ok(Some(x)) => x,
                Ok(None) => {
                    return Err(f.err(
                        ErrorKind::BadValue,
                        "thresholds are in packets (queue_unit = \"packets\"): write a number or \"60p\"",
                    ))
                }
                Err(e) => return Err(f.err(ErrorKind::BadValue, format!("{e}"))),
            }
        }
        (super::value::Kind::Str(_), QueueUnit::Bytes) => f.clone().size()? as f64,
        _ => f.clone().number()?,
    };
    if x < 0.0 {
        return Err(f.err(ErrorKind::BadValue, "must be >= 0"));
    }
    Ok(x)
}

/// min_th, max_th, max_p, w_q of one RED (or one RIO precedence), with their rules.
fn red_core(t: &Tbl<'_>, unit: QueueUnit) -> Res<(f64, f64, f64, f64)> {
    let min_f = t.req("min_th")?;
    let min_th = threshold(min_f, unit)?;
    let max_f = t.req("max_th")?;
    let max_th = threshold(max_f.clone(), unit)?;
    // Floyd & Jacobson 1993 §4: p_b = max_p (avg - min_th)/(max_th - min_th) needs
    // min_th < max_th.
    if min_th >= max_th {
        return Err(max_f.err(
            ErrorKind::Relation,
            format!(
                "must be above min_th = {min_th} (RED, Floyd & Jacobson 1993 §4: min_th < max_th)"
            ),
        ));
    }
    let max_p = t
        .get("max_p")
        .map_or(Ok(DEFAULT_MAX_P), Field::prob_open_closed)?;
    let w_q = t
        .get("w_q")
        .map_or(Ok(DEFAULT_W_Q), Field::prob_open_closed)?;
    Ok((min_th, max_th, max_p, w_q))
}

fn red(t: &Tbl<'_>) -> Res<RedSpec> {
    let queue_unit = queue_unit(t)?;
    let (min_th, max_th, max_p, w_q) = red_core(t, queue_unit)?;
    if let (Some(f), true) = (t.get("ns2_use_mark_p"), opt_bool(t, "ecn", false)?) {
        if f.clone().bool()? {
            return Err(f.err(
                ErrorKind::Relation,
                "ns2_use_mark_p = true cannot be combined with ecn = true (ns-2.35 marks under \
                 use_mark_p_ only while p_b <= mark_p_, which is not modelled)",
            ));
        }
    }
    Ok(RedSpec {
        min_th,
        max_th,
        max_p,
        w_q,
        gentle: opt_bool(t, "gentle", false)?,
        wait: opt_bool(t, "wait", false)?,
        byte_mode: opt_bool(t, "byte_mode", false)?,
        queue_unit,
        mean_pkt_size: mean_pkt_size(t)?,
        ecn: opt_bool(t, "ecn", false)?,
        adaptive: opt_bool(t, "adaptive", false)?,
        ns2_use_mark_p: opt_bool(t, "ns2_use_mark_p", false)?,
        ns2_gentle_initial_max_p: opt_bool(t, "ns2_gentle_initial_max_p", false)?,
    })
}

fn precedence(f: Field<'_>, unit: QueueUnit) -> Res<RioPrecedenceSpec> {
    let t = f.table()?;
    t.check_keys(PRECEDENCE_KEYS, "a RIO precedence")?;
    let (min_th, max_th, max_p, w_q) = red_core(&t, unit)?;
    Ok(RioPrecedenceSpec {
        min_th,
        max_th,
        max_p,
        w_q,
    })
}

fn rio(t: &Tbl<'_>, limit: Limit) -> Res<QueueSpec> {
    let queue_unit = queue_unit(t)?;
    // Named tables: in/out are green/yellow (Clark & Fang In/Out = AF11/AF12).
    let mut named: [Option<(Field<'_>, &str)>; 3] = [None, None, None];
    for name in ["in", "out", "green", "yellow", "red"] {
        let Some(f) = t.get(name) else { continue };
        let c = Color::parse(name).unwrap_or(Color::Red);
        if let Some((_, other)) = &named[c.index()] {
            return Err(f.err(
                ErrorKind::Relation,
                format!("`{name}` and `{other}` name the same precedence: give one of them"),
            ));
        }
        named[c.index()] = Some((f, name));
    }
    let any_named = named.iter().any(Option::is_some);
    let precedences = match t.get("precedences") {
        Some(f) if any_named => {
            return Err(f.err(
                ErrorKind::Relation,
                "give either `precedences` or named tables (in/out, green/yellow/red), not both",
            ))
        }
        Some(f) => {
            let items = f.clone().list()?;
            if !(2..=3).contains(&items.len()) {
                return Err(f.err(
                    ErrorKind::BadValue,
                    "must list 2 (In, Out) or 3 (green, yellow, red) precedences, most preferred first",
                ));
            }
            items
                .into_iter()
                .map(|p| precedence(p, queue_unit))
                .collect::<Res<Vec<_>>>()?
        }
        None if !any_named => {
            return Err(t.err(
                ErrorKind::BadValue,
                "missing key `precedences` (or named tables `in`/`out` or `green`/`yellow`/`red`)",
            ))
        }
        None => {
            let [g, y, r] = named;
            let Some((g, _)) = g else {
                return Err(t.err(
                    ErrorKind::BadValue,
                    "missing the In precedence (`in` or `green`)",
                ));
            };
            let Some((y, _)) = y else {
                return Err(t.err(
                    ErrorKind::BadValue,
                    "missing the Out precedence (`out` or `yellow`)",
                ));
            };
            let mut v = vec![precedence(g, queue_unit)?, precedence(y, queue_unit)?];
            if let Some((r, _)) = r {
                v.push(precedence(r, queue_unit)?);
            }
            v
        }
    };
    let coupling = match t.get("coupling") {
        Some(f) => match f.choice(&["coupled", "decoupled"])? {
            "coupled" => RioCoupling::Coupled,
            _ => RioCoupling::Decoupled,
        },
        None => RioCoupling::Coupled,
    };
    Ok(QueueSpec::Rio {
        limit,
        precedences,
        coupling,
        gentle: opt_bool(t, "gentle", false)?,
        queue_unit,
        mean_pkt_size: mean_pkt_size(t)?,
        wait: opt_bool(t, "wait", false)?,
        ns2_avg_on_in_arrivals: opt_bool(t, "ns2_avg_on_in_arrivals", false)?,
        ns2_out_forced_keeps_count: opt_bool(t, "ns2_out_forced_keeps_count", false)?,
    })
}

/// `loss = { packet = p }` or `{ byte = b }`, optionally with `ecn = true` (mark ECT
/// packets instead of dropping them) and `at = "wire"` (default: decided when the packet
/// starts serialising, a lost packet occupies the link) or `at = "entry"` (decided when it
/// enters the link, before the queue: ns-2's `$ns lossmodel`, whose error module sits at the
/// link's head); a probability of zero means no loss (so a duplex link can switch loss off
/// in one direction with `reverse_loss = { packet = 0 }`). Or `loss = { drop_list = [n,
/// ...] }` (scripted drops, [`LossSpec::DropList`], always at the entry). Returns the loss,
/// the `ecn` flag and whether it is decided at the entry.
pub(crate) fn loss(f: Field<'_>) -> Res<(Option<LossSpec>, bool, bool)> {
    let t = f.clone().table()?;
    t.check_keys(
        &["packet", "byte", "drop_list", "ecn", "at"],
        "a loss table",
    )?;
    let ecn = t.get("ecn").map_or(Ok(false), Field::bool)?;
    let at_entry = match t.get("at") {
        None => false,
        Some(af) => match af.clone().string()?.as_str() {
            "wire" => false,
            "entry" => true,
            _ => {
                return Err(af.err(
                    ErrorKind::BadValue,
                    "must be \"wire\" (when the packet starts serialising) or \"entry\" (before the queue, ns-2's `lossmodel`)",
                ))
            }
        },
    };
    if at_entry && t.get("drop_list").is_some() {
        return Err(t.req("at")?.err(
            ErrorKind::Relation,
            "a `drop_list` is always decided at the link's entry; leave out `at`",
        ));
    }
    let given: Vec<&str> = ["packet", "byte", "drop_list"]
        .into_iter()
        .filter(|k| t.get(k).is_some())
        .collect();
    if given.len() > 1 {
        return Err(f.err(
            ErrorKind::Relation,
            format!(
                "give one of `packet`, `byte` or `drop_list`, not `{}`",
                given.join("` and `")
            ),
        ));
    }
    let (key, make): (&str, fn(f64) -> LossSpec) = match given.first() {
        Some(&"packet") => ("packet", |p| LossSpec::Packet { p }),
        Some(&"byte") => ("byte", |b| LossSpec::Byte { b }),
        Some(_) => return drop_list(&t, ecn).map(|(l, e)| (l, e, false)),
        None => {
            return Err(f.err(
                ErrorKind::BadValue,
                "missing key `packet`, `byte` or `drop_list`",
            ))
        }
    };
    let pf = t.req(key)?;
    let p = pf.clone().number()?;
    // RFC 4828 App. B: a loss probability per packet (B.1) or per byte (B.2).
    if !(0.0..=1.0).contains(&p) {
        return Err(pf.err(ErrorKind::BadValue, "must be a probability in [0, 1]"));
    }
    Ok((if p == 0.0 { None } else { Some(make(p)) }, ecn, at_entry))
}

/// `drop_list = [n, ...]`: packet positions from 0, strictly increasing (ns-2's
/// `ListErrorModel::parse_droplist` sorts its list and refuses a duplicate; a list written
/// out of order is refused here rather than sorted). Not with `ecn = true`.
fn drop_list(t: &Tbl<'_>, ecn: bool) -> Res<(Option<LossSpec>, bool)> {
    let lf = t.req("drop_list")?;
    if ecn {
        return Err(t.req("ecn")?.err(
            ErrorKind::Relation,
            "`ecn = true` marks instead of dropping at random; a `drop_list` only drops",
        ));
    }
    let items = lf.clone().list()?;
    if items.is_empty() {
        return Err(lf.err(
            ErrorKind::BadValue,
            "must list at least one packet position (leave out `loss` for no loss)",
        ));
    }
    let mut packets = Vec::with_capacity(items.len());
    for item in items {
        let n = item.clone().uint(u64::MAX >> 1)?;
        if let Some(&prev) = packets.last() {
            if n <= prev {
                return Err(item.err(
                    ErrorKind::BadValue,
                    format!(
                        "must be above the entry before it ({prev}): the list is strictly \
                         increasing"
                    ),
                ));
            }
        }
        packets.push(n);
    }
    Ok((
        Some(LossSpec::DropList {
            packets: Box::new(DropPositions(packets.into_boxed_slice())),
        }),
        false,
    ))
}
