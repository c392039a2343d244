//! Typed, located access to the spanned TOML tree: every accessor either returns a value
//! of the expected type and range or a [`ScenarioError`] naming file, line, column, key
//! path, the value found and what is allowed.
//!
//! Counted tables (`count = n`) are read once per instance `i = 1..=n`; in an instance,
//! * every string has `{i}` replaced by `i`;
//! * a value that is not itself a list may be given as a list of `n` values (element
//!   `i - 1` is taken);
//! * a quantity (duration, rate, size) may be given as `{ from = .., to = .. }`, spread
//!   linearly: `from + (to - from)(i - 1)/(n - 1)`, rounded to the nearest base unit
//!   (1 ns, 1 bit/s, 1 B), halves up; `from` when `n = 1`.

use core::ops::Range;
use std::rc::Rc;

use qoslab_algo::{Duration, Rate};

use super::error::{line_col, ErrorKind, Inner, ScenarioError};
use super::units::{self, UnitError};
use super::value::{Key, Kind, Val};

/// Largest `count` accepted (keeps a typo like `count = 2000000000` from exhausting memory).
pub(crate) const MAX_COUNT: u32 = 100_000;

/// The instance of a counted table being read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Inst {
    pub i: u32,
    pub count: u32,
}

/// The file being read.
pub(crate) struct Cx<'s> {
    pub file: &'s str,
    pub src: &'s str,
}

pub(crate) type Res<T> = Result<T, ScenarioError>;

pub(crate) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else if key.is_empty() {
        path.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// A value's key path (`link[3].queue.max_p`), kept in pieces and written out only when a
/// message names it. Reading a scenario makes one per field read — a 10,000-flow file reads
/// hundreds of thousands — and formatting each eagerly was most of its start-up (issue 13:
/// 83 % of the 10,000-flow dumbbell's start-up instructions were the reader, 334 M of them
/// this formatting).
#[derive(Clone)]
pub(crate) struct KeyPath<'a> {
    /// The table's path.
    base: Rc<str>,
    /// The key in it ("" for the table itself).
    key: &'a str,
    /// An element of the value's list.
    index: Option<usize>,
}

impl<'a> KeyPath<'a> {
    pub fn new(base: Rc<str>, key: &'a str) -> KeyPath<'a> {
        KeyPath {
            base,
            key,
            index: None,
        }
    }

    /// The path of element `k` of this value's list.
    pub fn element(&self, k: usize) -> KeyPath<'a> {
        match self.index {
            None => KeyPath {
                index: Some(k),
                ..self.clone()
            },
            Some(_) => KeyPath {
                base: self.render().into(),
                key: "",
                index: Some(k),
            },
        }
    }

    /// The path as written in messages.
    pub fn render(&self) -> String {
        let mut s = join(&self.base, self.key);
        if let Some(k) = self.index {
            s.push_str(&format!("[{k}]"));
        }
        s
    }
}

impl<'s> Cx<'s> {
    pub fn error(
        &self,
        kind: ErrorKind,
        span: &Range<usize>,
        path: &str,
        value: Option<String>,
        inst: Option<Inst>,
        message: impl Into<String>,
    ) -> ScenarioError {
        ScenarioError::new(Inner {
            kind,
            file: self.file.to_string(),
            pos: Some(line_col(self.src, span.start)),
            path: path.to_string(),
            value,
            instance: inst.map(|x| x.i),
            message: message.into(),
        })
    }

    /// The value as written (strings after `{i}` substitution), cut to a readable length.
    fn render(&self, v: &Val, inst: Option<Inst>) -> String {
        if let (Kind::Str(s), Some(inst)) = (&v.kind, inst) {
            return format!("{:?}", s.replace("{i}", &inst.i.to_string()));
        }
        let text = self
            .src
            .get(v.span.clone())
            .filter(|t| !t.is_empty())
            .map(str::to_string);
        let text = text.unwrap_or_else(|| match &v.kind {
            Kind::Str(s) => format!("{s:?}"),
            Kind::Int(n) => n.to_string(),
            Kind::Float(x) => x.to_string(),
            Kind::Bool(b) => b.to_string(),
            Kind::Datetime => "<date>".into(),
            Kind::Array(_) => "[...]".into(),
            Kind::Table(_) => "{...}".into(),
        });
        let one_line = text.lines().next().unwrap_or("");
        if one_line.chars().count() > 48 || one_line.len() < text.trim_end().len() {
            let cut: String = one_line.chars().take(45).collect();
            format!("{cut}...")
        } else {
            one_line.to_string()
        }
    }
}

/// One value of the tree, with its key path and the instance it is read for.
#[derive(Clone)]
pub(crate) struct Field<'a> {
    pub cx: &'a Cx<'a>,
    pub v: &'a Val,
    pub path: KeyPath<'a>,
    pub inst: Option<Inst>,
    /// Already resolved to this instance's value (a list inside is a value, not one per
    /// instance), or read outside instances on purpose.
    pub picked: bool,
}

/// A `[defaults.*]` table's entries and path, where a table's missing keys are looked up.
pub(crate) type Fallback<'a> = Option<(&'a [(Key, Val)], Rc<str>)>;

/// One table of the tree; keys missing in it are looked up in `fallback` (a
/// `[defaults.*]` table) if any.
#[derive(Clone)]
pub(crate) struct Tbl<'a> {
    pub cx: &'a Cx<'a>,
    pub entries: &'a [(Key, Val)],
    pub span: Range<usize>,
    pub path: Rc<str>,
    pub inst: Option<Inst>,
    pub fallback: Fallback<'a>,
}

impl<'a> Field<'a> {
    /// An error about this value, showing it.
    pub fn err(&self, kind: ErrorKind, msg: impl Into<String>) -> ScenarioError {
        let shown = self.cx.render(self.v, self.inst);
        self.cx.error(
            kind,
            &self.v.span,
            &self.path.render(),
            Some(shown),
            self.inst,
            msg,
        )
    }

    fn wrong_type(&self, expected: &str) -> ScenarioError {
        let mut msg = format!("expected {expected}, found {}", self.v.kind.type_name());
        if matches!(self.v.kind, Kind::Array(_)) && self.inst.is_none() && !self.picked {
            msg.push_str(" (a list of per-instance values needs `count` in the table)");
        }
        self.err(ErrorKind::BadValue, msg)
    }

    /// In a counted table, a list stands for one value per instance: take this instance's.
    pub fn per_instance(self) -> Res<Field<'a>> {
        if self.picked {
            return Ok(self);
        }
        match (&self.v.kind, self.inst) {
            (Kind::Array(items), Some(inst)) => {
                if items.len() != inst.count as usize {
                    return Err(self.err(
                        ErrorKind::Relation,
                        format!(
                            "has {} values but count = {}: give one value, or exactly one per instance",
                            items.len(),
                            inst.count
                        ),
                    ));
                }
                let k = inst.i as usize - 1;
                Ok(Field {
                    v: &items[k],
                    path: self.path.element(k),
                    picked: true,
                    ..self
                })
            }
            (_, Some(_)) => Ok(Field {
                picked: true,
                ..self
            }),
            (_, None) => Ok(self),
        }
    }

    /// Replaces every `{expr}` in `s`, where `expr` is an integer expression of the
    /// instance number `i` (see [`eval_index_expr`]), e.g. `"S{i}"`, `"C{(i-1)/10+1}"`.
    fn substitute(&self, s: &str) -> Res<String> {
        if !s.contains('{') {
            return Ok(s.to_string());
        }
        let Some(inst) = self.inst else {
            return Err(self.err(
                ErrorKind::Relation,
                "`{i}` is only defined in a table with `count` (as are expressions such as `{(i-1)/10+1}`)",
            ));
        };
        expand_index(s, i64::from(inst.i)).map_err(|e| {
            self.err(
                ErrorKind::BadValue,
                format!("{e} (allowed in braces: integers, i, + - * / % and parentheses)"),
            )
        })
    }

    pub fn string(self) -> Res<String> {
        let f = self.per_instance()?;
        match &f.v.kind {
            Kind::Str(s) => f.substitute(s),
            _ => Err(f.wrong_type("a string")),
        }
    }

    /// A string that must be one of `choices`.
    pub fn choice(self, choices: &[&'static str]) -> Res<&'static str> {
        let f = self.per_instance()?;
        let s = f.clone().string()?;
        match choices.iter().find(|c| **c == s) {
            Some(c) => Ok(c),
            None => Err(f.err(
                ErrorKind::BadValue,
                format!("must be one of {}", quoted_list(choices)),
            )),
        }
    }

    pub fn bool(self) -> Res<bool> {
        let f = self.per_instance()?;
        match f.v.kind {
            Kind::Bool(b) => Ok(b),
            _ => Err(f.wrong_type("true or false")),
        }
    }

    /// A non-negative integer no larger than `max`.
    pub fn uint(self, max: u64) -> Res<u64> {
        let f = self.per_instance()?;
        match f.v.kind {
            Kind::Int(n) if n >= 0 && n as u64 <= max => Ok(n as u64),
            Kind::Int(_) => Err(f.err(
                ErrorKind::BadValue,
                format!("must be an integer in [0, {max}]"),
            )),
            _ => Err(f.wrong_type("an integer")),
        }
    }

    /// A finite number (integer or float).
    pub fn number(self) -> Res<f64> {
        let f = self.per_instance()?;
        match f.v.kind {
            Kind::Int(n) => Ok(n as f64),
            Kind::Float(x) if x.is_finite() => Ok(x),
            Kind::Float(_) => Err(f.err(ErrorKind::BadValue, "must be a finite number")),
            _ => Err(f.wrong_type("a number")),
        }
    }

    /// A number in the half-open interval (0, 1] (a probability that must not be zero).
    pub fn prob_open_closed(self) -> Res<f64> {
        let f = self.clone().per_instance()?;
        let x = f.clone().number()?;
        if x > 0.0 && x <= 1.0 {
            Ok(x)
        } else {
            Err(f.err(ErrorKind::BadValue, "must be in (0, 1]"))
        }
    }

    /// A quantity read by `parse` (which returns the value in its base unit).
    fn quantity(
        self,
        what: &str,
        example: &str,
        parse: fn(&str) -> Result<u64, UnitError>,
    ) -> Res<u64> {
        if let (Kind::Table(entries), Some(inst)) = (&self.v.kind, self.inst) {
            return self.spread(entries, inst, what, example, parse);
        }
        let f = self.per_instance()?;
        match &f.v.kind {
            Kind::Str(s) => {
                let s = f.substitute(s)?;
                parse(&s).map_err(|e| {
                    let msg = match e {
                        UnitError::Negative | UnitError::NotWhole { .. } | UnitError::TooLarge => {
                            e.to_string()
                        }
                        _ => format!("{e}; write {what} such as \"{example}\""),
                    };
                    f.err(ErrorKind::BadValue, msg)
                })
            }
            Kind::Int(_) | Kind::Float(_) => Err(f.err(
                ErrorKind::BadValue,
                format!("{what} needs a unit, written as a string, e.g. \"{example}\""),
            )),
            Kind::Table(_) => Err(f.err(
                ErrorKind::BadValue,
                "a { from, to } range is only allowed in a table with `count`",
            )),
            _ => Err(f.wrong_type(&format!("{what} as a string, e.g. \"{example}\""))),
        }
    }

    fn spread(
        &self,
        entries: &'a [(Key, Val)],
        inst: Inst,
        what: &str,
        example: &str,
        parse: fn(&str) -> Result<u64, UnitError>,
    ) -> Res<u64> {
        let t = Tbl {
            cx: self.cx,
            entries,
            span: self.v.span.clone(),
            path: self.path.render().into(),
            inst: None,
            fallback: None,
        };
        t.check_keys(&["from", "to"], "a { from, to } range")?;
        let from = t.req("from")?.quantity(what, example, parse)?;
        let to = t.req("to")?.quantity(what, example, parse)?;
        if inst.count <= 1 {
            return Ok(from);
        }
        // from + (to - from)(i - 1)/(n - 1), rounded to nearest, halves up:
        // floor((2·num + den) / (2·den)) with num = (to - from)(i - 1), den = n - 1.
        let num = (i128::from(to) - i128::from(from)) * i128::from(inst.i - 1);
        let den = i128::from(inst.count - 1);
        let step = (2 * num + den).div_euclid(2 * den);
        Ok((i128::from(from) + step) as u64)
    }

    pub fn duration(self) -> Res<Duration> {
        self.quantity("a duration", "5ms", |s| {
            units::parse_duration(s).map(|d| d.as_nanos())
        })
        .map(Duration)
    }

    pub fn rate(self) -> Res<Rate> {
        self.quantity("a rate", "100Mbps", |s| {
            units::parse_rate(s).map(|r| r.bps())
        })
        .map(Rate)
    }

    pub fn size(self) -> Res<u64> {
        self.quantity("a size", "500B", units::parse_size)
    }

    /// A size that must fit in u32 and be at least `min` bytes.
    pub fn size_u32(self, min: u64) -> Res<u32> {
        let f = self.clone();
        let b = self.size()?;
        if b < min {
            return Err(f.err(ErrorKind::BadValue, format!("must be at least {min} B")));
        }
        u32::try_from(b).map_err(|_| f.err(ErrorKind::BadValue, "must be below 4 GiB"))
    }

    pub fn table(self) -> Res<Tbl<'a>> {
        let f = self.per_instance()?;
        match &f.v.kind {
            Kind::Table(entries) => Ok(Tbl {
                cx: f.cx,
                entries,
                span: f.v.span.clone(),
                path: f.path.render().into(),
                inst: f.inst,
                fallback: None,
            }),
            _ => Err(f.wrong_type("a table")),
        }
    }

    /// A list (not per-instance: the key itself is a list).
    pub fn list(self) -> Res<Vec<Field<'a>>> {
        match &self.v.kind {
            Kind::Array(items) => Ok(items
                .iter()
                .enumerate()
                .map(|(k, v)| Field {
                    cx: self.cx,
                    v,
                    path: self.path.element(k),
                    inst: self.inst,
                    picked: false,
                })
                .collect()),
            _ => Err(self.wrong_type("a list")),
        }
    }

    /// The same value read outside any instance (for keys that select the table's shape).
    pub fn with_no_inst(self) -> Field<'a> {
        Field {
            inst: None,
            picked: true,
            ..self
        }
    }

    pub fn is_table(&self) -> bool {
        matches!(self.v.kind, Kind::Table(_))
    }
}

impl<'a> Tbl<'a> {
    /// Refuses any key of this table (not of its fallback) outside `allowed`.
    pub fn check_keys(&self, allowed: &[&str], what: &str) -> Res<()> {
        for (k, _) in self.entries {
            if !allowed.contains(&k.name.as_str()) {
                let mut msg = format!("unknown key in {what}");
                if let Some(s) = suggest(&k.name, allowed) {
                    msg.push_str(&format!(" (did you mean `{s}`?)"));
                }
                msg.push_str(&format!("; allowed: {}", allowed.join(", ")));
                return Err(self.cx.error(
                    ErrorKind::UnknownKey,
                    &k.span,
                    &join(&self.path, &k.name),
                    None,
                    self.inst,
                    msg,
                ));
            }
        }
        Ok(())
    }

    pub fn get(&self, key: &str) -> Option<Field<'a>> {
        if let Some((k, v)) = self.entries.iter().find(|(k, _)| k.name == key) {
            return Some(Field {
                cx: self.cx,
                v,
                path: KeyPath::new(self.path.clone(), &k.name),
                inst: self.inst,
                picked: false,
            });
        }
        let (entries, path) = self.fallback.as_ref()?;
        let (k, v) = entries.iter().find(|(k, _)| k.name == key)?;
        Some(Field {
            cx: self.cx,
            v,
            path: KeyPath::new(path.clone(), &k.name),
            inst: self.inst,
            picked: false,
        })
    }

    /// A key that must be present.
    pub fn req(&self, key: &str) -> Res<Field<'a>> {
        self.get(key)
            .ok_or_else(|| self.err(ErrorKind::BadValue, format!("missing key `{key}`")))
    }

    /// An error about the table as a whole (reported at its header).
    pub fn err(&self, kind: ErrorKind, msg: impl Into<String>) -> ScenarioError {
        self.cx
            .error(kind, &self.span, &self.path, None, self.inst, msg)
    }

    pub fn with_inst(&self, inst: Option<Inst>) -> Tbl<'a> {
        Tbl {
            inst,
            ..self.clone()
        }
    }

    pub fn with_fallback(self, fallback: Fallback<'a>) -> Tbl<'a> {
        Tbl { fallback, ..self }
    }

    /// `count` of a counted table (read once, not per instance).
    pub fn count(&self) -> Res<Option<u32>> {
        let Some(f) = self.with_inst(None).get("count") else {
            return Ok(None);
        };
        match f.v.kind {
            Kind::Int(n) if (1..=i64::from(MAX_COUNT)).contains(&n) => Ok(Some(n as u32)),
            Kind::Int(_) => Err(f.err(
                ErrorKind::BadValue,
                format!("must be an integer in [1, {MAX_COUNT}]"),
            )),
            _ => Err(f.wrong_type("an integer")),
        }
    }
}

/// The instances of a table with `count` (or the single un-numbered one).
pub(crate) fn instances(count: Option<u32>) -> Vec<Option<Inst>> {
    match count {
        None => vec![None],
        Some(n) => (1..=n).map(|i| Some(Inst { i, count: n })).collect(),
    }
}

pub(crate) fn quoted_list(choices: &[&str]) -> String {
    choices
        .iter()
        .map(|c| format!("\"{c}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The largest edit distance at which `word` is taken for a typo of another word:
/// one edit per three characters, at least one.
pub(crate) fn close_enough(word: &str) -> usize {
    (word.chars().count() / 3).max(1)
}

/// The allowed key closest to `key` (see [`close_enough`]), for "did you mean".
fn suggest<'k>(key: &str, allowed: &[&'k str]) -> Option<&'k str> {
    allowed
        .iter()
        .map(|a| (edit_distance(key, a), *a))
        .filter(|(d, _)| *d <= close_enough(key))
        .min_by_key(|(d, _)| *d)
        .map(|(_, a)| a)
}

pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_and_suggestions() {
        assert_eq!(edit_distance("min_th", "min_th"), 0);
        assert_eq!(edit_distance("minth", "min_th"), 1);
        assert_eq!(edit_distance("mxa_p", "max_p"), 2);
        assert_eq!(edit_distance("", "ab"), 2);
        assert_eq!(suggest("minth", &["min_th", "max_th"]), Some("min_th"));
        assert_eq!(suggest("colour", &["min_th", "max_th"]), None);
        // "rate" is not a typo of "name" (two edits in four letters)
        assert_eq!(suggest("rate", &["name"]), None);
    }
}

/// How deep parentheses and unary minus may nest in an index expression.
pub(crate) const MAX_EXPR_DEPTH: u32 = 64;

/// Replaces every `{expr}` of `pattern` by the value of the integer expression `expr` of the
/// instance number `i` (e.g. `"C{(i-1)/10+1}"` → `"C2"` for i = 11).
pub(crate) fn expand_index(pattern: &str, i: i64) -> Result<String, String> {
    let mut out = String::with_capacity(pattern.len());
    let mut rest = pattern;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            return Err("a `{` without its closing `}`".into());
        };
        let expr = &rest[open + 1..open + close];
        let v = eval_index_expr(expr, i).map_err(|e| format!("`{{{expr}}}`: {e}"))?;
        out.push_str(&v.to_string());
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Evaluates an integer expression of the instance number `i`: integers, `i`, `+ - * / %`
/// (integer division and remainder, truncating) and parentheses, with the usual precedence.
/// Used in names such as `"C{(i-1)/10+1}"` (ten workstations per customer router).
///
/// Robust on any input: every operation is checked (`i64::MIN / -1`, `-i64::MIN` and the
/// like are errors, not panics), and parentheses and unary minus nest at most
/// [`MAX_EXPR_DEPTH`] deep (a recursive-descent parser on untrusted text would otherwise
/// overflow the stack).
pub(crate) fn eval_index_expr(expr: &str, i: i64) -> Result<i64, String> {
    struct P<'s> {
        b: &'s [u8],
        k: usize,
        i: i64,
        depth: u32,
    }
    impl P<'_> {
        fn ws(&mut self) {
            while self.k < self.b.len() && self.b[self.k] == b' ' {
                self.k += 1;
            }
        }
        fn peek(&mut self) -> Option<u8> {
            self.ws();
            self.b.get(self.k).copied()
        }
        fn sum(&mut self) -> Result<i64, String> {
            let mut v = self.product()?;
            while let Some(op @ (b'+' | b'-')) = self.peek() {
                self.k += 1;
                let r = self.product()?;
                v = if op == b'+' {
                    v.checked_add(r)
                } else {
                    v.checked_sub(r)
                }
                .ok_or("overflow")?;
            }
            Ok(v)
        }
        fn product(&mut self) -> Result<i64, String> {
            let mut v = self.atom()?;
            while let Some(op @ (b'*' | b'/' | b'%')) = self.peek() {
                self.k += 1;
                let r = self.atom()?;
                v = match op {
                    b'*' => v.checked_mul(r).ok_or("overflow")?,
                    _ if r == 0 => return Err("division by zero".into()),
                    b'/' => v.checked_div(r).ok_or("overflow")?,
                    _ => v.checked_rem(r).ok_or("overflow")?,
                };
            }
            Ok(v)
        }
        fn atom(&mut self) -> Result<i64, String> {
            self.depth += 1;
            if self.depth > MAX_EXPR_DEPTH {
                return Err(format!(
                    "nested more than {MAX_EXPR_DEPTH} deep (parentheses and unary minus)"
                ));
            }
            let v = self.atom_inner();
            self.depth -= 1;
            v
        }
        fn atom_inner(&mut self) -> Result<i64, String> {
            match self.peek() {
                Some(b'(') => {
                    self.k += 1;
                    let v = self.sum()?;
                    if self.peek() != Some(b')') {
                        return Err("missing `)`".into());
                    }
                    self.k += 1;
                    Ok(v)
                }
                Some(b'-') => {
                    self.k += 1;
                    self.atom()?
                        .checked_neg()
                        .ok_or_else(|| "overflow".to_string())
                }
                Some(b'i') => {
                    self.k += 1;
                    Ok(self.i)
                }
                Some(c) if c.is_ascii_digit() => {
                    let start = self.k;
                    while self.k < self.b.len() && self.b[self.k].is_ascii_digit() {
                        self.k += 1;
                    }
                    std::str::from_utf8(&self.b[start..self.k])
                        .ok()
                        .and_then(|t| t.parse().ok())
                        .ok_or_else(|| "number too large".to_string())
                }
                Some(c) => Err(format!("unexpected `{}`", c as char)),
                None => Err("unexpected end".into()),
            }
        }
    }
    let mut p = P {
        b: expr.as_bytes(),
        k: 0,
        i,
        depth: 0,
    };
    let v = p.sum()?;
    if p.peek().is_some() {
        return Err(format!("unexpected `{}`", &expr[p.k..]));
    }
    Ok(v)
}

#[cfg(test)]
mod expr_tests {
    use super::eval_index_expr as e;

    #[test]
    fn index_expressions() {
        assert_eq!(e("i", 7), Ok(7));
        assert_eq!(e("(i-1)/10+1", 10), Ok(1));
        assert_eq!(e("(i-1)/10+1", 11), Ok(2));
        assert_eq!(e("(i - 1) % 10 + 1", 23), Ok(3));
        assert_eq!(e("2*i+-3", 5), Ok(7));
        assert!(e("i/0", 1).is_err());
        assert!(e("j", 1).is_err());
        assert!(e("(i", 1).is_err());
        assert!(e("", 1).is_err());
    }

    /// Regression (issue 12, fuzzer): `i64::MIN / -1` and `i64::MIN % -1` panicked.
    #[test]
    fn overflowing_division_remainder_and_negation_are_errors() {
        assert_eq!(e("i/-1", i64::MIN), Err("overflow".into()));
        assert_eq!(e("i%-1", i64::MIN), Err("overflow".into()));
        assert_eq!(e("-i", i64::MIN), Err("overflow".into()));
        assert_eq!(
            e("(0-9223372036854775807-1)/(0-1)", 1),
            Err("overflow".into())
        );
        assert_eq!(e("-9223372036854775807", 1), Ok(-i64::MAX));
    }

    /// Regression (issue 12, fuzzer): ~100,000 nested parentheses overflowed the stack.
    #[test]
    fn deep_nesting_is_refused_not_a_stack_overflow() {
        for open in ["(", "-", "(-"] {
            let deep = format!(
                "{}1{}",
                open.repeat(100_000),
                ")".repeat(if open == "-" { 0 } else { 100_000 })
            );
            let err = e(&deep, 1).unwrap_err();
            assert!(err.contains("nested more than 64"), "{err}");
        }
        let ok = format!("{}i{}", "(".repeat(63), ")".repeat(63));
        assert_eq!(e(&ok, 5), Ok(5));
    }
}
