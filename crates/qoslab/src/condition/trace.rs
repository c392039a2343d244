//! Trace records and the CSV trace format.
//!
//! CSV input: a header naming the columns `time` and `size` (required) and `color`, `flow`
//! (optional), in any order; then one packet per line. `time` is decimal seconds (parsed to
//! integer ns exactly), `size` the IP packet size in bytes (> 0), `color` one of green,
//! yellow, red (also in/out), `flow` a non-negative integer. Blank lines and lines starting
//! with `#` are skipped. Times must be non-decreasing.
//!
//! CSV output: the input columns as they were (an input `color` column is renamed
//! `color_in`), then `color` (the colour leaving the chain, or the colour when dropped),
//! `departure` (seconds, 9 decimals; empty if dropped) when the chain has a shaper, and
//! `dropped` (true/false) when it has a policer or a shaper (buffer overflow).

use std::fmt;
use std::io::{BufRead, Write};

use qoslab_algo::Color;
use qoslab_sim::scenario::units::{parse_duration, UnitError};

use super::pcap::{PcapRaw, PcapngRaw};
use super::ConditionError;

/// Decimal seconds ("12", "0.5", "1.000000001") to integer ns, exactly, with the scenario
/// quantity parser (`qoslab_sim::scenario::units`: exact decimals, no `f64`). A trace time
/// has no unit, so the unit `s` is appended; anything finer than 1 ns, negative, empty or
/// with an exponent is refused rather than rounded.
pub fn parse_secs(s: &str) -> Result<u64, UnitError> {
    let s = s.trim();
    if s.is_empty() {
        return Err(UnitError::Empty);
    }
    parse_duration(&format!("{s}s")).map(|d| d.as_nanos())
}

/// Formats ns as seconds with exactly nine decimals ("1.000000001").
pub fn format_secs(ns: u64) -> String {
    format!("{}.{:09}", ns / 1_000_000_000, ns % 1_000_000_000)
}

/// Where a record came from, for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loc {
    /// CSV line (1-based).
    Line(u64),
    /// Classic pcap packet record (1-based).
    Record(u64),
    /// pcapng block (1-based, counting every block).
    Block(u64),
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loc::Line(n) => write!(f, "line {n}"),
            Loc::Record(n) => write!(f, "record {n}"),
            Loc::Block(n) => write!(f, "block {n}"),
        }
    }
}

/// One packet of a trace.
#[derive(Clone, Debug)]
pub struct Packet {
    pub loc: Loc,
    /// Arrival time, absolute ns as in the trace.
    pub time: u64,
    /// IP packet size in bytes.
    pub size: u32,
    /// Pre-colour (CSV `color` column, or the AF drop precedence of a pcap packet's DSCP).
    pub color: Color,
    pub flow: u32,
    pub raw: Raw,
}

/// The packet's original representation, for writing it back out.
#[derive(Clone, Debug)]
pub enum Raw {
    /// The CSV fields in input column order.
    Csv(Vec<String>),
    Pcap(PcapRaw),
    Pcapng(PcapngRaw),
}

/// An input item: a packet to condition, or bytes to copy verbatim into pcap/pcapng output
/// (non-IP frames, pcapng blocks other than packets).
#[derive(Clone, Debug)]
pub enum Item {
    Packet(Packet),
    /// `frame` is true for a captured frame that carries no IP packet, false for file
    /// structure (pcapng section/interface/other blocks).
    Passthrough {
        bytes: Vec<u8>,
        frame: bool,
    },
}

/// What happened to a packet in the chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Colour when leaving the chain (or when dropped).
    pub color: Color,
    /// Departure instant, absolute ns (None if dropped).
    pub departure: Option<u64>,
    /// Why it was dropped, if it was.
    pub dropped: Option<&'static str>,
}

#[derive(Clone, Copy, Debug)]
struct Cols {
    time: usize,
    size: usize,
    color: Option<usize>,
    flow: Option<usize>,
}

/// Streaming CSV trace reader.
pub struct CsvReader<R> {
    r: R,
    line_no: u64,
    header: Vec<String>,
    cols: Cols,
    buf: String,
}

fn input_err(msg: String) -> ConditionError {
    ConditionError::Input(msg)
}

impl<R: BufRead> CsvReader<R> {
    /// Reads the header.
    pub fn new(mut r: R) -> Result<Self, ConditionError> {
        let mut buf = String::new();
        let mut line_no = 0;
        let header = loop {
            buf.clear();
            line_no += 1;
            let n = r
                .read_line(&mut buf)
                .map_err(|e| input_err(format!("line {line_no}: cannot read: {e}")))?;
            if n == 0 {
                return Err(input_err(
                    "empty trace: expected a CSV header `time,size[,color][,flow]`, or a pcap/pcapng file".into(),
                ));
            }
            let t = buf.trim();
            if !t.is_empty() && !t.starts_with('#') {
                break t
                    .split(',')
                    .map(|c| c.trim().to_ascii_lowercase())
                    .collect::<Vec<_>>();
            }
        };
        let (mut time, mut size, mut color, mut flow) = (None, None, None, None);
        for (i, c) in header.iter().enumerate() {
            let slot = match c.as_str() {
                "time" => &mut time,
                "size" => &mut size,
                "color" => &mut color,
                "flow" => &mut flow,
                other => {
                    return Err(input_err(format!(
                        "line {line_no}: unknown column `{other}`; allowed columns: time, size, color, flow"
                    )))
                }
            };
            if slot.replace(i).is_some() {
                return Err(input_err(format!(
                    "line {line_no}: column `{c}` appears twice"
                )));
            }
        }
        let (Some(time), Some(size)) = (time, size) else {
            return Err(input_err(format!(
                "line {line_no}: the header must name the columns `time` and `size` (and optionally `color`, `flow`); found `{}`",
                header.join(",")
            )));
        };
        Ok(CsvReader {
            r,
            line_no,
            header,
            cols: Cols {
                time,
                size,
                color,
                flow,
            },
            buf,
        })
    }

    pub fn header(&self) -> &[String] {
        &self.header
    }

    /// The next packet, `None` at the end.
    pub fn next_packet(&mut self) -> Result<Option<Packet>, ConditionError> {
        loop {
            self.buf.clear();
            self.line_no += 1;
            let loc = Loc::Line(self.line_no);
            let n = self
                .r
                .read_line(&mut self.buf)
                .map_err(|e| input_err(format!("{loc}: cannot read: {e}")))?;
            if n == 0 {
                return Ok(None);
            }
            let t = self.buf.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let fields: Vec<String> = t.split(',').map(|f| f.trim().to_string()).collect();
            if fields.len() != self.header.len() {
                return Err(input_err(format!(
                    "{loc}: expected {} fields ({}), found {}",
                    self.header.len(),
                    self.header.join(","),
                    fields.len()
                )));
            }
            let time = parse_secs(&fields[self.cols.time]).map_err(|e| {
                input_err(format!(
                    "{loc}: time: {e} (expected decimal seconds, e.g. 1.25)"
                ))
            })?;
            let size_s = &fields[self.cols.size];
            let size = match size_s.parse::<u32>() {
                Ok(s) if s > 0 => s,
                _ => {
                    return Err(input_err(format!(
                        "{loc}: size `{size_s}` is not a positive whole number of bytes (1..=4294967295)"
                    )))
                }
            };
            let color = match self.cols.color {
                None => Color::Green,
                Some(i) => Color::parse(&fields[i].to_ascii_lowercase()).ok_or_else(|| {
                    input_err(format!(
                        "{loc}: unknown color `{}`; allowed: green, yellow, red (or in, out)",
                        fields[i]
                    ))
                })?,
            };
            let flow = match self.cols.flow {
                None => 0,
                Some(i) => fields[i].parse::<u32>().map_err(|_| {
                    input_err(format!(
                        "{loc}: flow `{}` is not a non-negative integer",
                        fields[i]
                    ))
                })?,
            };
            return Ok(Some(Packet {
                loc,
                time,
                size,
                color,
                flow,
                raw: Raw::Csv(fields),
            }));
        }
    }
}

/// Streaming CSV output writer.
pub struct CsvWriter<W> {
    w: W,
    departure: bool,
    dropped: bool,
}

impl<W: Write> CsvWriter<W> {
    /// Writes the header: `input_cols` (with `color` renamed `color_in`), then `color`,
    /// `departure` and `dropped` as configured.
    pub fn new(
        mut w: W,
        input_cols: &[String],
        departure: bool,
        dropped: bool,
    ) -> std::io::Result<Self> {
        let mut cols: Vec<&str> = input_cols
            .iter()
            .map(|c| if c == "color" { "color_in" } else { c.as_str() })
            .collect();
        cols.push("color");
        if departure {
            cols.push("departure");
        }
        if dropped {
            cols.push("dropped");
        }
        writeln!(w, "{}", cols.join(","))?;
        Ok(CsvWriter {
            w,
            departure,
            dropped,
        })
    }

    /// Writes one row: the input fields, then the outcome columns.
    pub fn write_row(&mut self, fields: &[&str], o: &Outcome) -> std::io::Result<()> {
        for f in fields {
            write!(self.w, "{f},")?;
        }
        write!(self.w, "{}", o.color.name())?;
        if self.departure {
            match o.departure {
                Some(d) => write!(self.w, ",{}", format_secs(d))?,
                None => write!(self.w, ",")?,
            }
        }
        if self.dropped {
            write!(self.w, ",{}", o.dropped.is_some())?;
        }
        writeln!(self.w)
    }

    pub fn into_inner(self) -> W {
        self.w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(text: &str) -> Result<Vec<Packet>, ConditionError> {
        let mut r = CsvReader::new(text.as_bytes())?;
        let mut v = Vec::new();
        while let Some(p) = r.next_packet()? {
            v.push(p);
        }
        Ok(v)
    }

    #[test]
    fn reads_columns_in_any_order() {
        let v = read_all(
            "# comment\nsize, flow, time ,color\n1500,3,0.000000001,yellow\n\n40,0,1.5,out\n",
        )
        .unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(
            (v[0].time, v[0].size, v[0].flow, v[0].color),
            (1, 1500, 3, Color::Yellow)
        );
        assert_eq!(
            (v[1].time, v[1].size, v[1].color, v[1].loc),
            (1_500_000_000, 40, Color::Yellow, Loc::Line(5))
        );
        let v = read_all("time,size\r\n2,100\r\n").unwrap();
        assert_eq!(
            (v[0].time, v[0].color, v[0].flow),
            (2_000_000_000, Color::Green, 0)
        );
    }

    #[test]
    fn malformed_inputs_name_the_line() {
        let cases: &[(&str, &[&str])] = &[
            ("", &["empty trace"]),
            (
                "time,bytes\n",
                &[
                    "line 1",
                    "unknown column `bytes`",
                    "time, size, color, flow",
                ],
            ),
            ("time,time,size\n", &["appears twice"]),
            ("time,flow\n", &["must name the columns `time` and `size`"]),
            (
                "time,size\n0,-5\n",
                &["line 2", "size `-5`", "positive whole number"],
            ),
            ("time,size\n0,abc\n", &["line 2", "size `abc`"]),
            ("time,size\n0,0\n", &["line 2", "size `0`"]),
            ("time,size\n0,99999999999\n", &["line 2", "size"]),
            ("time,size\n\n1,2,3\n", &["line 3", "expected 2 fields"]),
            ("time,size\nx,10\n", &["line 2", "time", "decimal seconds"]),
            ("time,size\n-1,10\n", &["line 2", "time"]),
            (
                "time,size,color\n1,10,blue\n",
                &["line 2", "unknown color `blue`", "green, yellow, red"],
            ),
            ("time,size,flow\n1,10,-1\n", &["line 2", "flow `-1`"]),
        ];
        for (text, wants) in cases {
            let e = read_all(text).expect_err(text).to_string();
            for w in *wants {
                assert!(e.contains(w), "{e:?} lacks {w:?} for {text:?}");
            }
        }
    }

    #[test]
    fn seconds_are_exact() {
        assert_eq!(parse_secs("1.000000001"), Ok(1_000_000_001));
        assert_eq!(parse_secs("0.1"), Ok(100_000_000));
        assert_eq!(parse_secs("12"), Ok(12_000_000_000));
        assert_eq!(parse_secs(".5"), Ok(500_000_000));
        assert_eq!(parse_secs("3.0000000010"), Ok(3_000_000_001));
        assert_eq!(
            parse_secs("1.0000000001"),
            Err(UnitError::NotWhole {
                base: "nanoseconds"
            })
        );
        assert_eq!(parse_secs("-1"), Err(UnitError::Negative));
        assert_eq!(parse_secs("1e-3"), Err(UnitError::BadNumber));
        assert_eq!(parse_secs(""), Err(UnitError::Empty));
        assert_eq!(parse_secs("."), Err(UnitError::BadNumber));
        // A unit is not allowed: "1s" would read as "1ss".
        assert!(matches!(
            parse_secs("1s"),
            Err(UnitError::UnknownUnit { .. })
        ));
        assert!(parse_secs("abc").is_err());
        assert_eq!(format_secs(1_000_000_001), "1.000000001");
        assert_eq!(format_secs(5), "0.000000005");
    }

    #[test]
    fn writer_columns() {
        let cols = vec!["time".to_string(), "size".to_string(), "color".to_string()];
        let mut w = CsvWriter::new(Vec::new(), &cols, true, true).unwrap();
        let o = Outcome {
            color: Color::Red,
            departure: Some(1_000_000_001),
            dropped: None,
        };
        w.write_row(&["1.0", "10", "green"], &o).unwrap();
        let o = Outcome {
            color: Color::Green,
            departure: None,
            dropped: Some("policed"),
        };
        w.write_row(&["2", "10", "green"], &o).unwrap();
        let s = String::from_utf8(w.into_inner()).unwrap();
        assert_eq!(
            s,
            "time,size,color_in,color,departure,dropped\n1.0,10,green,red,1.000000001,false\n2,10,green,green,,true\n"
        );
    }
}
