//! Shared inputs of the report tests: a catalog full of hostile text, a
//! real Tier 3 iteration made by `check --behavioral` with the fake
//! `claude` (tests/behave_support), and checks that an HTML page holds no
//! markup but its own.
#![allow(dead_code)]

#[path = "../behave_support/mod.rs"]
pub mod behave;

use std::path::{Path, PathBuf};

/// Text no report may turn into markup or a link.
pub const HOSTILE: &str = "</script><script>alert('x')</script> & \"q\" 'a' javascript:alert(1)";

/// A skill whose folder and name are a `javascript:` URL.
pub const JS_SKILL: &str = "javascript:alert(1)";

/// A catalog whose descriptions, prompts and file names carry [`HOSTILE`]
/// text, with one collision, one stolen prompt and Tier 1 findings.
pub fn hostile_catalog(dir: &Path) -> PathBuf {
    let root = dir.join("hostile");
    let skill = |folder: &str, name: &str, description: &str| {
        let d = root.join("skills").join(folder);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: >-\n  {description}\n---\n\n# {name}\n"),
        )
        .unwrap();
    };
    skill(
        "charts",
        "charts",
        "Draws charts from tables <script>alert('desc')</script> & \"quoted\" 'data'. Use when a table needs a chart.",
    );
    skill(
        "tables",
        "tables",
        "Draws tables and charts from data. Use when a table needs formatting or a chart.",
    );
    skill(
        JS_SKILL,
        JS_SKILL,
        "Parses server logs for errors. Use when logs need parsing.",
    );
    let cases = root.join("evals/cases");
    std::fs::create_dir_all(&cases).unwrap();
    let case = |skill: &str, positive: &[&str], negative: &[(&str, &str)]| {
        let doc = serde_json::json!({
            "skill_name": skill,
            "trigger": {
                "positive": positive.iter().map(|p| serde_json::json!({"prompt": p})).collect::<Vec<_>>(),
                "negative": negative.iter().map(|(p, o)| serde_json::json!({"prompt": p, "owner": o})).collect::<Vec<_>>(),
            },
            "evals": [],
        });
        std::fs::write(
            cases.join(format!("{skill}.json")),
            serde_json::to_string_pretty(&doc).unwrap(),
        )
        .unwrap();
    };
    case(
        "charts",
        &["draw a chart of these tables", "chart this", "charts"],
        &[("parse the server logs", JS_SKILL)],
    );
    // charts' description shares `script` and `alert` with this prompt, so
    // it ranks first: the prompt is listed in a cell of the matrix
    case(
        "tables",
        &[
            &format!("format tables {HOSTILE}"),
            "tables please",
            "data tables",
        ],
        &[],
    );
    case(
        JS_SKILL,
        &["parse server logs", "find errors in logs", "logs parsing"],
        &[],
    );
    root
}

/// The tag names an HTML report may contain: anything else came from text
/// that was not escaped.
const TAGS: &[&str] = &[
    "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "h4", "p", "nav",
    "a", "main", "section", "div", "table", "thead", "tbody", "tr", "th", "td", "span", "b", "i",
    "code", "small", "ol", "ul", "li", "details", "summary", "svg", "g", "line", "text", "tspan",
    "circle", "rect", "polyline", "caption", "br", "label", "input", "footer", "pre", "article",
    "script",
];

/// Assert that `html` holds only the report's own markup: known tags, one
/// script, links that are fragments or relative paths, no event handler
/// attributes.
pub fn assert_only_own_markup(html: &str) {
    assert_eq!(
        html.matches("<script").count(),
        1,
        "exactly one script element, the report's own"
    );
    // the report's own style and script are not markup
    let mut own = html.to_string();
    for (open, close) in [("<style>", "</style>"), ("<script>", "</script>")] {
        let a = own.find(open).expect("the report's own block") + open.len();
        let b = a + own[a..].find(close).expect("closed");
        own.replace_range(a..b, "");
    }
    let html = own.as_str();
    let bytes = html.as_bytes();
    let mut i = 0;
    while let Some(at) = html[i..].find('<') {
        let start = i + at + 1;
        let rest = &html[start..];
        let rest = rest.strip_prefix('/').unwrap_or(rest);
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if !rest.starts_with('!') {
            assert!(
                TAGS.contains(&name.to_ascii_lowercase().as_str()),
                "unexpected tag <{name}> at byte {start}: {}",
                &html[start.saturating_sub(40)..(start + 80).min(html.len())]
            );
        }
        i = start;
        if i >= bytes.len() {
            break;
        }
    }
    for (k, _) in html.match_indices("href=\"") {
        let v = &html[k + 6..];
        let v = &v[..v.find('"').unwrap()];
        assert!(
            v.starts_with('#') || v.starts_with("./") || v.starts_with("../") || v == ".",
            "link {v:?} is neither a fragment nor a relative path"
        );
        assert!(!v.contains(':'), "link {v:?} holds a colon");
    }
    let lower = html.to_ascii_lowercase();
    for handler in [" onerror=", " onclick=", " onload=", " onmouseover="] {
        // as text inside an escaped string it is preceded by `&lt;img src=x`
        for (k, _) in lower.match_indices(handler) {
            let before = &lower[..k];
            let open = before.rfind('<').unwrap_or(0);
            let close = before.rfind('>').unwrap_or(0);
            assert!(close > open, "event handler attribute at byte {k}");
        }
    }
}

/// Cases of `demo-skill`: the usual five trigger prompts and ten evals
/// (enough for the scorer to judge), plus `extra_eval`.
pub fn scored_cases(extra_eval: Option<serde_json::Value>) -> String {
    let mut evals = vec![
        serde_json::json!({"id": 1, "prompt": "[rec:task] The invoice total in demo-project is off by a cent. Fix it.", "expected_output": "A failing test, then the fix", "files": ["demo-project"], "expectations": ["A failing test reproduces the lost cent before src/total.js changes", "The full suite is run after the fix"]}),
        serde_json::json!({"id": 2, "kind": "dialogue", "prompt": "[rec:chat] Ask me about the rounding rules before changing anything.", "expected_output": "Questions first", "expectations": ["The agent asks about rounding rules before proposing a change"]}),
        serde_json::json!({"id": 3, "prompt": "[rec:task] Refund totals in demo-project lose a cent. Fix it.", "expected_output": "A failing test, then the fix", "files": ["demo-project"], "expectations": ["A failing test reproduces the lost cent", "The full suite is run after the fix"]}),
        serde_json::json!({"id": 4, "kind": "dialogue", "prompt": "[rec:chat] Before touching the tax code, ask what rounding mode we use.", "expected_output": "A question", "expectations": ["The agent asks which rounding mode applies"]}),
        serde_json::json!({"id": 5, "kind": "dialogue", "prompt": "[rec:loads] Look at the invoice module and tell me if anything is off.", "expected_output": "A look around", "expectations": ["The agent looks at the files"]}),
        serde_json::json!({"id": 6, "prompt": "[rec:task] Split bills in demo-project gain a cent. Fix it.", "expected_output": "A failing test, then the fix", "files": ["demo-project"], "expectations": ["A failing test reproduces the extra cent", "The full suite is run after the fix"]}),
        serde_json::json!({"id": 7, "kind": "dialogue", "prompt": "[rec:chat] Discounts round oddly; ask me before you change them.", "expected_output": "A question", "expectations": ["The agent asks about discounts first"]}),
        serde_json::json!({"id": 8, "kind": "dialogue", "prompt": "[rec:wrong] Make the currency module round like the bank does.", "expected_output": "A question, then a test", "expectations": ["The agent asks how the bank rounds", "A failing test comes before the change"]}),
        serde_json::json!({"id": 9, "kind": "dialogue", "prompt": "[rec:loads] Check whether the totals module has any rounding risk.", "expected_output": "A look around", "expectations": ["The agent reads the module"]}),
        serde_json::json!({"id": 10, "prompt": "[rec:task] Tips in demo-project are a cent short. Fix it.", "expected_output": "A failing test, then the fix", "files": ["demo-project"], "expectations": ["A failing test reproduces the missing cent", "The full suite is run after the fix"]}),
    ];
    evals.extend(extra_eval);
    behave::cases_with_evals(serde_json::Value::Array(evals))
}

/// Eval 11: a dialogue eval whose prompt, answer, tool input, expectation
/// and grader evidence are hostile (the `xss` recordings).
pub fn xss_eval() -> serde_json::Value {
    serde_json::json!({
        "id": 11,
        "kind": "dialogue",
        "prompt": format!("[rec:xss] {HOSTILE}"),
        "expected_output": HOSTILE,
        "expectations": ["Says </script><script>alert(4)</script> & more"],
    })
}

/// Eval 12: its runs end without a `result` line (no verdict).
pub fn noresult_eval() -> serde_json::Value {
    serde_json::json!({
        "id": 12,
        "kind": "dialogue",
        "prompt": "[rec:noresult] Do the thing.",
        "expected_output": "x",
        "expectations": ["It does the thing"],
    })
}

/// `skillsift check ROOT --format json`, parsed.
pub fn check_doc(root: &Path) -> serde_json::Value {
    let out = assert_cmd::Command::cargo_bin("skillsift")
        .unwrap()
        .args(["check", "--format", "json"])
        .arg(root)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Run `check --behavioral demo-skill` in `env` and return its iteration
/// folder (the `n`th).
pub fn run_iteration(env: &behave::Env, extra: &[&str], n: u32) -> PathBuf {
    let out = env.behave(extra).output().unwrap();
    assert!(
        matches!(out.status.code(), Some(0..=4)),
        "check --behavioral failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let it = env.iteration(n);
    assert!(
        it.join("plan.json").is_file(),
        "{} not written",
        it.display()
    );
    it
}

/// `skillsift report PATH -o FILE` with the fakes' environment, returning
/// the page.
pub fn report(env: &behave::Env, path: &Path, file: &Path, extra: &[&str]) -> String {
    env.cmd()
        .arg("report")
        .arg(path)
        .arg("-o")
        .arg(file)
        .args(extra)
        .assert()
        .code(0);
    std::fs::read_to_string(file).unwrap()
}
