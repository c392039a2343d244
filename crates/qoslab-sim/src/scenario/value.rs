//! A TOML document as a tree in which every key and value keeps its byte span, so every
//! error can name a line and column.
//!
//! `toml::Value` drops spans and `toml::Spanned<T>` only spans one level, so the tree is
//! read with a small serde visitor that speaks the `serde_spanned` protocol of `toml` 0.8:
//! a deserializer asked for the struct `$__serde_spanned_private_Spanned` answers with a
//! map `{start, end, value}`. Where the deserializer has no span (or is not a spanned
//! one) the plain value arrives instead and the span is left empty (`0..0`). Dates and
//! times (which `toml` delivers as a one-key map) become [`Kind::Datetime`], which no key
//! of the format accepts.

use core::fmt;
use core::ops::Range;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

// The `serde_spanned` 0.6 protocol (re-exported by `toml` 0.8 as `toml::Spanned`).
const SPANNED_NAME: &str = "$__serde_spanned_private_Spanned";
const SPANNED_START: &str = "$__serde_spanned_private_start";
const SPANNED_END: &str = "$__serde_spanned_private_end";
const SPANNED_VALUE: &str = "$__serde_spanned_private_value";
const SPANNED_FIELDS: &[&str] = &[SPANNED_START, SPANNED_END, SPANNED_VALUE];
// `toml_datetime` 0.6 delivers a datetime as a map with this single key.
const DATETIME_FIELD: &str = "$__toml_private_datetime";

/// A value with its byte span in the source.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Val {
    pub span: Range<usize>,
    pub kind: Kind,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Kind {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    Datetime,
    Array(Vec<Val>),
    /// Entries in file order.
    Table(Vec<(Key, Val)>),
}

/// A table key with its byte span.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Key {
    pub name: String,
    pub span: Range<usize>,
}

impl Kind {
    /// The type as a user reads it in an error message.
    pub fn type_name(&self) -> &'static str {
        match self {
            Kind::Str(_) => "a string",
            Kind::Int(_) => "an integer",
            Kind::Float(_) => "a float",
            Kind::Bool(_) => "a boolean",
            Kind::Datetime => "a date/time",
            Kind::Array(_) => "a list",
            Kind::Table(_) => "a table",
        }
    }
}

impl<'de> Deserialize<'de> for Val {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Val, D::Error> {
        d.deserialize_struct(SPANNED_NAME, SPANNED_FIELDS, ValVisitor)
    }
}

/// Reads the plain value (no span request), used for the `value` field of the protocol.
struct Plain(Val);

impl<'de> Deserialize<'de> for Plain {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Plain, D::Error> {
        d.deserialize_any(ValVisitor).map(Plain)
    }
}

fn unspanned(kind: Kind) -> Val {
    Val { span: 0..0, kind }
}

struct ValVisitor;

impl<'de> Visitor<'de> for ValVisitor {
    type Value = Val;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a TOML value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Val, E> {
        Ok(unspanned(Kind::Bool(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Val, E> {
        Ok(unspanned(Kind::Int(v)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Val, E> {
        i64::try_from(v)
            .map(|v| unspanned(Kind::Int(v)))
            .map_err(|_| E::custom("integer too large"))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Val, E> {
        Ok(unspanned(Kind::Float(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Val, E> {
        Ok(unspanned(Kind::Str(v.to_string())))
    }
    fn visit_string<E>(self, v: String) -> Result<Val, E> {
        Ok(unspanned(Kind::Str(v)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Val, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element::<Val>()? {
            items.push(v);
        }
        Ok(unspanned(Kind::Array(items)))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Val, A::Error> {
        let Some(first) = map.next_key::<Key>()? else {
            return Ok(unspanned(Kind::Table(Vec::new())));
        };
        if first.name == SPANNED_START {
            // The spanned protocol: start, end, then the value itself.
            let start: usize = map.next_value()?;
            let mut end = start;
            let mut value = None;
            while let Some(k) = map.next_key::<Key>()? {
                if k.name == SPANNED_END {
                    end = map.next_value()?;
                } else if k.name == SPANNED_VALUE {
                    value = Some(map.next_value::<Plain>()?.0);
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            let Some(mut v) = value else {
                return Err(de::Error::custom("spanned value without a value"));
            };
            v.span = start..end.max(start);
            return Ok(v);
        }
        if first.name == DATETIME_FIELD {
            map.next_value::<IgnoredAny>()?;
            while map.next_key::<IgnoredAny>()?.is_some() {
                map.next_value::<IgnoredAny>()?;
            }
            return Ok(unspanned(Kind::Datetime));
        }
        let mut entries = Vec::new();
        let v = map.next_value::<Val>()?;
        entries.push((first, v));
        while let Some(k) = map.next_key::<Key>()? {
            let v = map.next_value::<Val>()?;
            entries.push((k, v));
        }
        Ok(unspanned(Kind::Table(entries)))
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        d.deserialize_struct(SPANNED_NAME, SPANNED_FIELDS, KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a TOML key")
    }
    fn visit_str<E>(self, v: &str) -> Result<Key, E> {
        Ok(Key {
            name: v.to_string(),
            span: 0..0,
        })
    }
    fn visit_string<E>(self, v: String) -> Result<Key, E> {
        Ok(Key {
            name: v,
            span: 0..0,
        })
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Key, A::Error> {
        let (mut start, mut end, mut name) = (0usize, 0usize, None);
        while let Some(k) = map.next_key::<String>()? {
            match k.as_str() {
                SPANNED_START => start = map.next_value()?,
                SPANNED_END => end = map.next_value()?,
                SPANNED_VALUE => name = Some(map.next_value::<String>()?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let name = name.ok_or_else(|| de::Error::custom("spanned key without a name"))?;
        Ok(Key {
            name,
            span: start..end.max(start),
        })
    }
}

/// Parses a whole document; on a syntax error returns the message and its byte span.
pub(crate) fn parse_document(text: &str) -> Result<Val, (String, Option<Range<usize>>)> {
    match toml::from_str::<Plain>(text) {
        Ok(Plain(mut v)) => {
            v.span = 0..0;
            Ok(v)
        }
        Err(e) => Err((e.message().to_string(), e.span())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(v: &Val) -> &[(Key, Val)] {
        match &v.kind {
            Kind::Table(t) => t,
            other => panic!("not a table: {other:?}"),
        }
    }

    #[test]
    fn keys_and_values_keep_their_spans() {
        let src = "a = 1\n[b]\nc = \"x\"\nd = [1.5, true]\n[[e]]\nf = 2\n";
        let doc = parse_document(src).unwrap();
        let t = table(&doc);
        assert_eq!(t[0].0.name, "a");
        assert_eq!(&src[t[0].0.span.clone()], "a");
        assert_eq!(&src[t[0].1.span.clone()], "1");
        assert_eq!(t[0].1.kind, Kind::Int(1));
        let b = table(&t[1].1);
        assert_eq!(&src[b[0].0.span.clone()], "c");
        assert_eq!(&src[b[0].1.span.clone()], "\"x\"");
        let Kind::Array(d) = &b[1].1.kind else {
            panic!()
        };
        assert_eq!(&src[d[0].span.clone()], "1.5");
        assert_eq!(d[1].kind, Kind::Bool(true));
        let Kind::Array(e) = &t[2].1.kind else {
            panic!()
        };
        let e0 = table(&e[0]);
        assert_eq!(&src[e0[0].1.span.clone()], "2");
        // The table of an array of tables is spanned from its header.
        assert!(
            src[e[0].span.clone()].starts_with("[[e]]"),
            "{:?}",
            &src[e[0].span.clone()]
        );
    }

    #[test]
    fn datetimes_are_a_kind() {
        let doc = parse_document("a = 1979-05-27T07:32:00Z\n").unwrap();
        assert_eq!(table(&doc)[0].1.kind, Kind::Datetime);
    }

    #[test]
    fn syntax_errors_have_a_span() {
        let (msg, span) = parse_document("a = \nb = 2").unwrap_err();
        assert!(!msg.is_empty());
        assert!(span.is_some());
    }
}
