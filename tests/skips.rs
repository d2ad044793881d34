//! Every test that needs an outside program (an agent CLI, Chromium,
//! strace) says so to `cargo test`: it carries
//! `#[cfg_attr(skillsift_missing_<program>, ignore = "…")]` (set by
//! build.rs), so a run without the program lists it as ignored, with the
//! reason, and counts it in the summary, instead of passing in silence.

use std::path::Path;

/// The calls that look for a program, and the cfg the test must carry.
const NEEDS: &[(&str, &str)] = &[
    ("real_client::cli(\"claude\")", "skillsift_missing_claude"),
    ("real_client::cli(\"codex\")", "skillsift_missing_codex"),
    ("real_client::cli(\"gemini\")", "skillsift_missing_gemini"),
    (
        "real_client::cli(\"opencode\")",
        "skillsift_missing_opencode",
    ),
    ("Browser::start()", "skillsift_missing_chromium"),
    ("strace_available()", "skillsift_missing_strace"),
    ("neovim()", "skillsift_missing_nvim"),
];

/// (test name, its attributes, its body) for each `#[test]` function of a
/// file (functions start at column 0 and end at the first `}` there).
fn tests_of(text: &str) -> Vec<(String, String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(rest) = line.strip_prefix("fn ") else {
            continue;
        };
        let name = rest.split(['(', '<']).next().unwrap().to_string();
        let mut k = i;
        // The attributes and doc comment above, up to a blank line or the
        // end of the item before (an attribute may span lines).
        while k > 0 && !lines[k - 1].trim().is_empty() && lines[k - 1] != "}" {
            k -= 1;
        }
        let attrs = lines[k..i].join("\n");
        if !attrs.lines().any(|l| l.trim() == "#[test]") {
            continue;
        }
        let end = lines[i..]
            .iter()
            .position(|l| *l == "}")
            .map_or(lines.len(), |e| i + e);
        out.push((name, attrs, lines[i..end].join("\n")));
    }
    out
}

#[test]
fn every_test_that_needs_a_program_is_ignored_with_its_reason_when_it_is_absent() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    let mut gated = 0;
    let mut failures = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (name, attrs, body) in tests_of(&text) {
            for (call, cfg) in NEEDS {
                if !body.contains(call) {
                    continue;
                }
                gated += 1;
                let marked = attrs.split("#[").any(|a| {
                    a.starts_with("cfg_attr(") && a.contains(cfg) && a.contains("ignore = \"")
                });
                if !marked {
                    failures.push(format!(
                        "{}: `{name}` calls {call} but has no #[cfg_attr({cfg}, ignore = \"needs …\")]",
                        file.file_name().unwrap().to_string_lossy()
                    ));
                }
            }
        }
    }
    assert!(gated >= 40, "found only {gated} tests that need a program");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
