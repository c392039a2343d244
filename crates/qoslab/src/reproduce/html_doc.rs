//! What the HTML report shows besides results: each experiment's scenario files and
//! scenario README (compiled in, as `qoslab reproduce` runs them, so the page is complete
//! wherever the binary runs), and a small Markdown-to-HTML converter for the READMEs.

use std::fmt::Write as _;

use crate::plot::esc;

macro_rules! files {
    ($($p:literal),* $(,)?) => {
        &[$(($p, include_str!(concat!("../../../../", $p)))),*]
    };
}

/// (path in the repository, text) of an experiment's scenario files.
pub fn scenario_files(name: &str) -> &'static [(&'static str, &'static str)] {
    match name {
        "rio-hori2001" => files!["scenarios/rio-hori2001/base.toml"],
        "rfc2963" => files!["scenarios/rfc2963/base.toml"],
        "rfc4828" => files![
            "scenarios/rfc4828/b1-packet-drop.toml",
            "scenarios/rfc4828/b2-byte-drop.toml",
            "scenarios/rfc4828/b3-droptail.toml",
            "scenarios/rfc4828/b4-red.toml",
        ],
        "pcn-stm" => files![
            "scenarios/pcn-stm/adm-cbr-single.toml",
            "scenarios/pcn-stm/adm-vbr-single.toml",
            "scenarios/pcn-stm/adm-svd-single.toml",
            "scenarios/pcn-stm/adm-cbr-rtt.toml",
            "scenarios/pcn-stm/adm-vbr-rtt.toml",
            "scenarios/pcn-stm/adm-svd-rtt.toml",
            "scenarios/pcn-stm/adm-cbr-plt5.toml",
            "scenarios/pcn-stm/adm-vbr-plt5.toml",
            "scenarios/pcn-stm/adm-svd-plt5.toml",
            "scenarios/pcn-stm/term-cbr-single.toml",
            "scenarios/pcn-stm/term-vbr-single.toml",
            "scenarios/pcn-stm/term-svd-single.toml",
            "scenarios/pcn-stm/term-cbr-rtt.toml",
            "scenarios/pcn-stm/term-vbr-rtt.toml",
            "scenarios/pcn-stm/term-svd-rtt.toml",
            "scenarios/pcn-stm/term-cbr-plt5.toml",
            "scenarios/pcn-stm/term-vbr-plt5.toml",
            "scenarios/pcn-stm/term-svd-plt5.toml",
            "scenarios/pcn-stm/marking-function.toml",
        ],
        "gfr-kim2001" => files![
            "scenarios/gfr-kim2001/table1.toml",
            "scenarios/gfr-kim2001/fig7.toml",
        ],
        _ => &[],
    }
}

/// (path, text) of the documents that state an experiment's assumptions.
pub fn documents(name: &str) -> &'static [(&'static str, &'static str)] {
    match name {
        "rio-hori2001" => files!["scenarios/rio-hori2001/SENSITIVITY.md"],
        "rfc4828" => files!["scenarios/rfc4828/README.md"],
        "pcn-stm" => files!["scenarios/pcn-stm/README.md"],
        "gfr-kim2001" => files!["scenarios/gfr-kim2001/README.md"],
        _ => &[],
    }
}

/// Markdown as HTML: headings, paragraphs, bullet and numbered lists, fenced code, pipe
/// tables, inline code, bold and links (shown as text). Enough for the scenario READMEs;
/// anything else comes out as paragraph text, escaped.
pub fn markdown(md: &str) -> String {
    let mut out = String::new();
    let mut para: Vec<&str> = Vec::new();
    let mut list: Option<&str> = None; // "ul" or "ol"
    let mut table: Vec<&str> = Vec::new();
    let mut code: Option<String> = None;
    let flush =
        |out: &mut String, para: &mut Vec<&str>, list: &mut Option<&str>, table: &mut Vec<&str>| {
            if !para.is_empty() {
                let _ = writeln!(out, "<p>{}</p>", inline(&para.join(" ")));
                para.clear();
            }
            if let Some(l) = list.take() {
                let _ = writeln!(out, "</li></{l}>");
            }
            if !table.is_empty() {
                out.push_str("<table class=\"md\">");
                for (i, row) in table.iter().enumerate() {
                    let cells: Vec<&str> = row.trim().trim_matches('|').split('|').collect();
                    if cells
                        .iter()
                        .all(|c| c.trim().chars().all(|ch| matches!(ch, '-' | ':')))
                    {
                        continue;
                    }
                    out.push_str("<tr>");
                    for c in cells {
                        let tag = if i == 0 { "th" } else { "td" };
                        let _ = write!(out, "<{tag}>{}</{tag}>", inline(c.trim()));
                    }
                    out.push_str("</tr>");
                }
                out.push_str("</table>\n");
                table.clear();
            }
        };
    for line in md.lines() {
        if let Some(c) = code.as_mut() {
            if line.trim_start().starts_with("```") {
                let _ = writeln!(out, "<pre>{}</pre>", esc(c));
                code = None;
            } else {
                c.push_str(line);
                c.push('\n');
            }
            continue;
        }
        let t = line.trim();
        if t.starts_with("```") {
            flush(&mut out, &mut para, &mut list, &mut table);
            code = Some(String::new());
        } else if t.is_empty() {
            flush(&mut out, &mut para, &mut list, &mut table);
        } else if t.starts_with('|') {
            if table.is_empty() {
                flush(&mut out, &mut para, &mut list, &mut table);
            }
            table.push(t);
        } else if let Some(h) = heading(t) {
            flush(&mut out, &mut para, &mut list, &mut table);
            // Levels shift by two: the page's own headings are h1 and h2.
            let l = (h.0 + 2).min(6);
            let _ = writeln!(out, "<h{l}>{}</h{l}>", inline(h.1));
        } else if let Some((kind, item)) = list_item(t) {
            if !para.is_empty() || !table.is_empty() || list.is_some_and(|l| l != kind) {
                flush(&mut out, &mut para, &mut list, &mut table);
            }
            match list {
                None => {
                    let _ = write!(out, "<{kind}><li>");
                    list = Some(kind);
                }
                Some(_) => out.push_str("</li><li>"),
            }
            out.push_str(&inline(item));
        } else if list.is_some() && line.starts_with(' ') {
            out.push(' ');
            out.push_str(&inline(t)); // continuation of a list item
        } else {
            if list.is_some() || !table.is_empty() {
                flush(&mut out, &mut para, &mut list, &mut table);
            }
            para.push(t);
        }
    }
    if let Some(c) = code {
        let _ = writeln!(out, "<pre>{}</pre>", esc(&c));
    }
    flush(&mut out, &mut para, &mut list, &mut table);
    out
}

fn heading(t: &str) -> Option<(usize, &str)> {
    let n = t.chars().take_while(|&c| c == '#').count();
    (1..=6)
        .contains(&n)
        .then(|| t[n..].strip_prefix(' '))
        .flatten()
        .map(|h| (n, h))
}

fn list_item(t: &str) -> Option<(&'static str, &str)> {
    if let Some(r) = t.strip_prefix("- ").or_else(|| t.strip_prefix("* ")) {
        return Some(("ul", r));
    }
    let d = t.chars().take_while(|c| c.is_ascii_digit()).count();
    if d > 0 {
        if let Some(r) = t[d..].strip_prefix(". ") {
            return Some(("ol", r));
        }
    }
    None
}

/// Inline markup: `code`, **bold**, [text](url) -> text (url).
fn inline(s: &str) -> String {
    let mut out = String::new();
    for (i, part) in s.split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{}</code>", esc(part));
            continue;
        }
        let mut p = esc(part);
        // Links: [text](url) -> text (url).
        while let (Some(a), Some(b)) = (p.find('['), p.find("](")) {
            let Some(c) = p[b..].find(')').map(|c| b + c) else {
                break;
            };
            if a >= b {
                break;
            }
            p = format!(
                "{}{} ({}){}",
                &p[..a],
                &p[a + 1..b],
                &p[b + 2..c],
                &p[c + 1..]
            );
        }
        let mut bold = false;
        for (k, q) in p.split("**").enumerate() {
            if k > 0 {
                out.push_str(if bold { "</b>" } else { "<b>" });
                bold = !bold;
            }
            out.push_str(q);
        }
        if bold {
            out.push_str("</b>");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_blocks_and_inline() {
        let md = "# Title\n\nSome `a<b` and **bold**.\n\n- one\n  more\n- two\n\n| k | v |\n|---|---|\n| x | 1 |\n\n```\ncode <x>\n```\n";
        let h = markdown(md);
        assert!(h.contains("<h3>Title</h3>"), "{h}");
        assert!(
            h.contains("<code>a&lt;b</code>") && h.contains("<b>bold</b>"),
            "{h}"
        );
        assert!(h.contains("<ul><li>one more</li><li>two</li></ul>"), "{h}");
        assert!(
            h.contains("<tr><th>k</th><th>v</th></tr><tr><td>x</td><td>1</td></tr>"),
            "{h}"
        );
        assert!(h.contains("<pre>code &lt;x&gt;\n</pre>"), "{h}");
        assert_eq!(inline("see [RFC](http://x)"), "see RFC (http://x)");
    }

    #[test]
    fn every_experiment_has_its_scenarios() {
        for n in super::super::NAMES
            .iter()
            .chain(&[super::super::pcn_stm::NAME, super::super::gfr_kim2001::NAME])
        {
            assert!(!scenario_files(n).is_empty(), "{n}");
        }
    }
}
