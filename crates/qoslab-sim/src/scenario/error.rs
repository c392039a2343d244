//! Errors of scenario files: where (file:line:column, key path), what was found, what is allowed.

use core::fmt;

/// The class of a scenario error (the CLI maps every class to exit status 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Not valid TOML.
    Syntax,
    /// A key the format does not know (or not in this kind of table).
    UnknownKey,
    /// A value of the wrong type, a bad unit, or outside its allowed range.
    BadValue,
    /// A reference to a node or link that does not exist.
    Dangling,
    /// A rule between several values is broken: duplicate names, self-loops,
    /// `min_th < max_th`, `warmup < duration`, an unreachable destination, a list whose
    /// length differs from `count`.
    Relation,
    /// The file could not be read.
    Io,
}

impl ErrorKind {
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Syntax => "Syntax",
            ErrorKind::UnknownKey => "UnknownKey",
            ErrorKind::BadValue => "BadValue",
            ErrorKind::Dangling => "Dangling",
            ErrorKind::Relation => "Relation",
            ErrorKind::Io => "Io",
        }
    }
}

/// A refused scenario file.
///
/// Displays as `file:line:col: path = value (i = k): message`, e.g.
/// `dumbbell.toml:27:11: link[3].queue.max_p = 1.5: must be in (0, 1]`. Parts that do not
/// apply are left out: no value for a missing key, no `(i = k)` outside counted tables,
/// no path for syntax errors, no position for I/O errors. Table indices in paths count
/// from 0 in file order (`link[3]` is the fourth `[[link]]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    // Boxed: errors travel through every accessor of the parser, keep `Result` small.
    inner: Box<Inner>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Inner {
    pub kind: ErrorKind,
    pub file: String,
    /// 1-based line and column (in characters).
    pub pos: Option<(usize, usize)>,
    pub path: String,
    pub value: Option<String>,
    /// The instance `i` of a table with `count`.
    pub instance: Option<u32>,
    pub message: String,
}

impl ScenarioError {
    pub(crate) fn new(inner: Inner) -> Self {
        ScenarioError {
            inner: Box::new(inner),
        }
    }
    pub fn kind(&self) -> ErrorKind {
        self.inner.kind
    }
    pub fn file(&self) -> &str {
        &self.inner.file
    }
    /// 1-based line, if the error has a position.
    pub fn line(&self) -> Option<usize> {
        self.inner.pos.map(|p| p.0)
    }
    /// 1-based column in characters, if the error has a position.
    pub fn column(&self) -> Option<usize> {
        self.inner.pos.map(|p| p.1)
    }
    /// Key path such as `link[3].queue.max_p` (empty for syntax and I/O errors).
    pub fn path(&self) -> &str {
        &self.inner.path
    }
    /// What is wrong and what is allowed.
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    pub(crate) fn io(file: &str, err: &std::io::Error) -> Self {
        ScenarioError::new(Inner {
            kind: ErrorKind::Io,
            file: file.to_string(),
            pos: None,
            path: String::new(),
            value: None,
            instance: None,
            message: format!("cannot read: {err}"),
        })
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = &*self.inner;
        write!(f, "{}", e.file)?;
        if let Some((line, col)) = e.pos {
            write!(f, ":{line}:{col}")?;
        }
        write!(f, ": ")?;
        if !e.path.is_empty() {
            write!(f, "{}", e.path)?;
            if let Some(v) = &e.value {
                write!(f, " = {v}")?;
            }
            if let Some(i) = e.instance {
                write!(f, " (i = {i})")?;
            }
            write!(f, ": ")?;
        }
        write!(f, "{}", e.message)
    }
}

impl std::error::Error for ScenarioError {}

/// 1-based line and column (in characters) of byte `offset` in `src`.
pub(crate) fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(src.len());
    while !src.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &src[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters() {
        let src = "a = 1\nbé = 2\n";
        assert_eq!(line_col(src, 0), (1, 1));
        assert_eq!(line_col(src, 6), (2, 1));
        // "bé " is 4 bytes (é is two) but 3 characters: "=" is at byte 10, column 4
        assert_eq!(line_col(src, 10), (2, 4));
        assert_eq!(line_col(src, 1000), (3, 1));
        // inside the two bytes of é: moved back to its start
        assert_eq!(line_col(src, 8), (2, 2));
    }

    #[test]
    fn display_format() {
        let inner = Inner {
            kind: ErrorKind::BadValue,
            file: "dumbbell.toml".into(),
            pos: Some((27, 11)),
            path: "link[3].queue.max_p".into(),
            value: Some("1.5".into()),
            instance: None,
            message: "must be in (0, 1]".into(),
        };
        let e = ScenarioError::new(inner.clone());
        assert_eq!(
            e.to_string(),
            "dumbbell.toml:27:11: link[3].queue.max_p = 1.5: must be in (0, 1]"
        );
        let e = ScenarioError::new(Inner {
            value: None,
            instance: Some(7),
            ..inner
        });
        assert_eq!(
            e.to_string(),
            "dumbbell.toml:27:11: link[3].queue.max_p (i = 7): must be in (0, 1]"
        );
    }
}
