//! `skillsift diff REV [ROOT]` through the binary, on git repositories the
//! tests make: a description edit that moves one prompt out of the top 3
//! and another to #1 (exit 1, both named with their ranks in every
//! format); a change that touches no routing (exit 0); a bad revision and
//! a folder outside git (exit 2); a repository whose configuration names
//! an fsmonitor, hooks and a pager (nothing runs); nothing written into the
//! repository; a stranger's text inert in the Markdown.

mod common;

use common::{skill, skillsift, write};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

struct Ran {
    code: i32,
    stdout: String,
    stderr: String,
}

fn diff(root: &Path, args: &[&str]) -> Ran {
    let out = skillsift()
        .arg("diff")
        .args(args)
        .current_dir(root)
        .output()
        .unwrap();
    Ran {
        code: out.status.code().unwrap(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// git in `root` with no configuration but the test's.
fn git(root: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
        .args([
            "-c",
            "commit.gpgSign=false",
            "-c",
            "core.hooksPath=/dev/null",
        ])
        .args(args)
        .current_dir(root)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {:?}", out);
    String::from_utf8(out.stdout).unwrap()
}

/// Six skills; `log-search`'s prompt ranks it #2 (in the top 3) and
/// `pdf-tools`' first prompt ranks it nowhere; committed.
fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    skill(
        root,
        "pdf-tools",
        "Extracts text and tables from PDF files. Use when the user has a PDF.",
    );
    skill(
        root,
        "csv-clean",
        "Cleans CSV files, fixes delimiters and encodings. Use when a CSV will not load.",
    );
    skill(
        root,
        "log-search",
        "Searches server logs for errors and stack traces. Use when debugging a crash.",
    );
    skill(
        root,
        "mail-draft",
        "Drafts replies to customer mail about a server crash or an outage.",
    );
    skill(
        root,
        "img-resize",
        "Resizes and compresses images for the web. Use when a page loads slowly.",
    );
    skill(
        root,
        "incident-notes",
        "Writes incident notes for an outage: the crash, the errors, the server affected.",
    );
    write(
        root,
        "evals/cases/log-search.json",
        r#"{"skill_name": "log-search", "trigger": {"positive": [{"prompt": "the server crash errors need a look"}], "negative": []}, "evals": []}"#,
    );
    write(
        root,
        "evals/cases/pdf-tools.json",
        r#"{"skill_name": "pdf-tools", "trigger": {"positive": [{"prompt": "a scanned document of the outage"}, {"prompt": "pull the tables out of this PDF"}], "negative": [{"prompt": "resize the images in this PDF"}]}, "evals": []}"#,
    );
    git(root, &["init", "-q", "-b", "main"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "base"]);
    dir
}

/// The edit: `log-search` loses its words, `pdf-tools` gains "scanned
/// documents".
fn edit(root: &Path) {
    skill(
        root,
        "log-search",
        "Reads application output. Use when debugging.",
    );
    skill(
        root,
        "pdf-tools",
        "Extracts text and tables from PDF files and scanned documents. Use when the user has a PDF.",
    );
}

#[test]
fn a_description_edit_that_moves_prompts_names_both_with_their_ranks_in_every_format() {
    let dir = repo();
    let root = dir.path();
    edit(root);
    let human = diff(root, &["main"]);
    assert_eq!(human.code, 1, "{}{}", human.stdout, human.stderr);
    let out = &human.stdout;
    assert!(out.contains("verdict  routing got worse"), "{out}");
    assert!(
        out.contains("\nworse\n  should \"the server crash errors need a look\" for `log-search`: #2, `incident-notes` first (passes, in the top 3) → #6, `incident-notes` first (fails: not in the top 3)\n"),
        "{out}"
    );
    assert!(
        out.contains("\nbetter\n  should \"a scanned document of the outage\" for `pdf-tools`: #6, `incident-notes` first (fails: not in the top 3) → #1 (passes)\n"),
        "{out}"
    );
    assert!(out.contains("rank-1 1/3 (33.3 %) → 2/3 (66.7 %)"), "{out}");

    let md = diff(root, &["main", ".", "--format", "markdown"]);
    assert_eq!(md.code, 1);
    let m = &md.stdout;
    assert!(
        m.starts_with("<!-- skillsift-diff -->\n### ⛔ skillsift: routing got worse"),
        "{m}"
    );
    assert!(
        m.contains("| rank-1 rate | 1/3 (33.3 %) | 2/3 (66.7 %) |"),
        "{m}"
    );
    let worse = m.find("**Worse** (1)").expect("a worse table");
    let better = m.find("**Better** (1)").expect("a better table");
    assert!(worse < better, "worse first: {m}");
    assert!(m.contains("| should `the server crash errors need a look` for `log-search` ⛔ | #2, `incident-notes` first (passes, in the top 3) | #6, `incident-notes` first (fails: not in the top 3) |"), "{m}");
    assert!(m.contains("| should `a scanned document of the outage` for `pdf-tools` | #6, `incident-notes` first (fails: not in the top 3) | #1 (passes) |"), "{m}");

    let json = diff(root, &["main", "--format", "json"]);
    assert_eq!(json.code, 1);
    let doc: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(doc["worse"], true);
    assert_eq!(doc["rev"], "main");
    assert_eq!(doc["commit"].as_str().unwrap().len(), 40);
    let prompts = doc["prompts"].as_array().unwrap();
    let find = |p: &str| {
        prompts
            .iter()
            .find(|x| x["prompt"] == p)
            .unwrap_or_else(|| panic!("{p} in {prompts:#?}"))
    };
    let out_of_top = find("the server crash errors need a look");
    assert_eq!(out_of_top["skill"], "log-search");
    assert_eq!(out_of_top["before"]["rank"], 2);
    assert_eq!(out_of_top["after"]["rank"], 6);
    assert_eq!(out_of_top["worse"], true);
    let to_first = find("a scanned document of the outage");
    assert_eq!(to_first["before"]["rank"], 6);
    assert_eq!(to_first["after"]["rank"], 1);
    assert_eq!(to_first["after"]["rank1"], true);
    assert_eq!(to_first["better"], true);
    assert_eq!(prompts.len(), 2, "only the prompts that moved");
    // byte-identical between runs
    assert_eq!(
        diff(root, &["main", "--format", "json"]).stdout,
        json.stdout
    );
}

#[test]
fn a_change_that_touches_no_routing_says_so_and_exits_0() {
    let dir = repo();
    let root = dir.path();
    write(
        root,
        "skills/pdf-tools/SKILL.md",
        "---\nname: pdf-tools\ndescription: Extracts text and tables from PDF files. Use when the user has a PDF.\n---\n\n# pdf-tools\n\nA new paragraph of the body.\n",
    );
    let r = diff(root, &["HEAD"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("verdict  no change in routing"),
        "{}",
        r.stdout
    );
    let md = diff(root, &["HEAD", "--format", "markdown"]);
    assert!(
        md.stdout.contains("### ✅ skillsift: no change in routing"),
        "{}",
        md.stdout
    );
    assert!(!md.stdout.contains("**Worse**"));
    let doc: Value =
        serde_json::from_str(&diff(root, &["HEAD", "--format", "json"]).stdout).unwrap();
    assert_eq!(doc["unchanged"], true);
    assert_eq!(doc["worse"], false);
    assert_eq!(doc["verdict"], "no change in routing");
}

#[test]
fn a_bad_revision_or_a_folder_outside_git_is_exit_2() {
    let dir = repo();
    let r = diff(dir.path(), &["no-such-branch"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.is_empty());
    assert!(
        r.stderr
            .contains("bad revision: `no-such-branch` names no commit"),
        "{}",
        r.stderr
    );
    // an option smuggled in as a revision is refused, never passed on
    let r = diff(dir.path(), &["--", "--output=/tmp/x"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("is not a revision"), "{}", r.stderr);
    let outside = tempfile::tempdir().unwrap();
    skill(outside.path(), "pdf-tools", "Extracts text from PDF files.");
    let r = diff(outside.path(), &["HEAD"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("not in a git repository"), "{}", r.stderr);
}

/// Every path under `root` (`.git` too) with its length and modification
/// time.
fn tree_state(root: &Path) -> Vec<(String, u64, std::time::SystemTime)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let m = e.path().symlink_metadata().unwrap();
            out.push((
                e.path().strip_prefix(root).unwrap().display().to_string(),
                m.len(),
                m.modified().unwrap(),
            ));
            if m.is_dir() {
                stack.push(e.path());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn a_repositorys_fsmonitor_hooks_and_pager_never_run_and_nothing_is_written() {
    let dir = repo();
    let root = dir.path();
    edit(root);
    let marker = tempfile::tempdir().unwrap();
    let m = marker.path().join("ran");
    let hooks = root.join(".git/hooks-here");
    std::fs::create_dir_all(&hooks).unwrap();
    for hook in [
        "post-checkout",
        "post-index-change",
        "reference-transaction",
        "pre-auto-gc",
    ] {
        let h = hooks.join(hook);
        std::fs::write(&h, format!("#!/bin/sh\ntouch {}\n", m.display())).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&h, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let config = std::fs::read_to_string(root.join(".git/config")).unwrap();
    std::fs::write(
        root.join(".git/config"),
        format!(
            "{config}[core]\n\tfsmonitor = \"touch {m}\"\n\thooksPath = {h}\n\tpager = touch {m}\n[diff]\n\texternal = touch {m}\n[filter \"x\"]\n\tsmudge = touch {m}\n\ttextconv = touch {m}\n",
            m = m.display(),
            h = hooks.display()
        ),
    )
    .unwrap();
    write(root, ".gitattributes", "* filter=x diff=x\n");
    // the configuration works: plain git starts the fsmonitor
    let _ = Command::new("git")
        .args(["status", "--short"])
        .current_dir(root)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    assert!(m.exists(), "plain git should have run the fsmonitor");
    std::fs::remove_file(&m).unwrap();
    let before = tree_state(root);
    for format in ["human", "markdown", "json"] {
        let r = diff(root, &["main", "--format", format]);
        assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    }
    assert!(
        !m.exists(),
        "skillsift diff ran a program the repository's configuration names"
    );
    assert_eq!(
        tree_state(root),
        before,
        "skillsift diff wrote into the repository"
    );
}

#[test]
fn a_strangers_text_is_inert_in_the_markdown() {
    let dir = repo();
    let root = dir.path();
    let evil = "![x](https://evil.example/p.png) <img src=x onerror=alert(1)> @octocat | ` *bold* [link](https://evil.example) the server crash errors";
    write(
        root,
        "evals/cases/log-search.json",
        &format!(
            r#"{{"skill_name": "log-search", "trigger": {{"positive": [{{"prompt": {}}}], "negative": []}}, "evals": []}}"#,
            serde_json::to_string(evil).unwrap()
        ),
    );
    git(root, &["commit", "-qam", "evil prompt"]);
    edit(root);
    let md = diff(root, &["HEAD", "--format", "markdown"]);
    assert_eq!(md.code, 1, "{}{}", md.stdout, md.stderr);
    let row = md
        .stdout
        .lines()
        .find(|l| l.contains("the server crash errors"))
        .unwrap_or_else(|| panic!("{}", md.stdout));
    // the prompt is one code span (no image, link, mention, HTML or
    // emphasis is made of it), its `|` escaped so the row keeps its cells
    assert!(
        row.starts_with(
            "| should ``![x](https://evil.example/p.png) <img src=x onerror=alert(1)> @octocat \\| ` *bold* [link](https://evil.example) the server crash errors`` for `log-search` ⛔ | "
        ),
        "{row}"
    );
    assert_eq!(row.matches(" | ").count(), 2, "{row}");
}

/// The action's diff step (`.github/actions/skillsift/diff.sh`) as
/// action.yml runs it: the real binary on PATH, the job summary and
/// outputs in files, and a `gh` that records what it is asked (no
/// network).
struct Step {
    bin: tempfile::TempDir,
    summary: std::path::PathBuf,
    output: std::path::PathBuf,
    log: std::path::PathBuf,
}

impl Step {
    fn new() -> Step {
        let bin = tempfile::tempdir().unwrap();
        let gh = bin.path().join("gh");
        // `gh api …`: record the call, print the ids $FAKE_GH_EXISTING
        // holds for the listing, keep the body a POST or PATCH sends
        std::fs::write(
            &gh,
            "#!/bin/sh\nprintf '%s\\n' \"$*\" >> \"$FAKE_GH_LOG\"\nprintf 'token=%s\\n' \"$GH_TOKEN\" >> \"$FAKE_GH_LOG\"\nfor a in \"$@\"; do case \"$a\" in body=@*) cat \"${a#body=@}\" > \"$FAKE_GH_LOG.body\";; esac; done\ncase \"$*\" in *--paginate*) printf '%s' \"$FAKE_GH_EXISTING\";; esac\n",
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&gh, std::fs::Permissions::from_mode(0o755)).unwrap();
        let summary = bin.path().join("summary.md");
        let output = bin.path().join("output");
        let log = bin.path().join("gh.log");
        Step {
            bin,
            summary,
            output,
            log,
        }
    }

    fn run(&self, root: &Path, env: &[(&str, &str)]) -> Ran {
        let exe = Path::new(env!("CARGO_BIN_EXE_skillsift"));
        let path = format!(
            "{}:{}:{}",
            self.bin.path().display(),
            exe.parent().unwrap().display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let script =
            Path::new(env!("CARGO_MANIFEST_DIR")).join(".github/actions/skillsift/diff.sh");
        let mut cmd = Command::new("bash");
        cmd.arg(script)
            .current_dir(root)
            .env("PATH", path)
            .env("GITHUB_STEP_SUMMARY", &self.summary)
            .env("GITHUB_OUTPUT", &self.output)
            .env("FAKE_GH_LOG", &self.log)
            .env("FAKE_GH_EXISTING", "")
            .env("SG_PATH", ".")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("NO_COLOR", "1")
            .env(
                "SKILLSIFT_CACHE_DIR",
                Path::new(env!("CARGO_TARGET_TMPDIR")).join("rank-cache"),
            );
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        Ran {
            code: out.status.code().unwrap(),
            stdout: String::from_utf8(out.stdout).unwrap(),
            stderr: String::from_utf8(out.stderr).unwrap(),
        }
    }

    fn read(p: &Path) -> String {
        std::fs::read_to_string(p).unwrap_or_default()
    }
}

#[test]
fn the_actions_diff_step_writes_the_job_summary_and_keeps_one_comment() {
    let dir = repo();
    let root = dir.path();
    let base = git(root, &["rev-parse", "HEAD"]).trim().to_string();
    edit(root);
    let step = Step::new();
    // summary mode: the Markdown in the job summary, the job not failed
    let r = step.run(root, &[("SG_BASE", &base), ("SG_DIFF", "summary")]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let summary = Step::read(&step.summary);
    assert!(
        summary.starts_with("<!-- skillsift-diff -->\n### ⛔ skillsift: routing got worse"),
        "{summary}"
    );
    assert!(
        summary.contains("`the server crash errors need a look`"),
        "{summary}"
    );
    assert!(Step::read(&step.output).contains("diff-exit-code=1\n"));
    assert!(!step.log.exists(), "no token: no comment");
    // gate mode fails the job
    let r = step.run(root, &[("SG_BASE", &base), ("SG_DIFF", "gate")]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    // a token: one comment, made once, then edited in place
    let with_token = [
        ("SG_BASE", base.as_str()),
        ("SG_TOKEN", "t0ken"),
        ("SG_REPO", "octo/cat"),
        ("SG_PR", "7"),
    ];
    let r = step.run(root, &with_token);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let log = Step::read(&step.log);
    assert!(
        log.contains("api repos/octo/cat/issues/7/comments --paginate --jq .[] | select(.body | startswith(\"<!-- skillsift-diff -->\")) | .id\ntoken=t0ken\n"),
        "{log}"
    );
    assert!(
        log.contains("api --silent -X POST repos/octo/cat/issues/7/comments -F body=@"),
        "{log}"
    );
    let body = Step::read(&step.log.with_extension("log.body"));
    assert!(body.starts_with("<!-- skillsift-diff -->\n"), "{body}");
    std::fs::remove_file(&step.log).unwrap();
    let mut existing = with_token.to_vec();
    existing.push(("FAKE_GH_EXISTING", "4242\n"));
    let r = step.run(root, &existing);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let log = Step::read(&step.log);
    assert!(
        log.contains("api --silent -X PATCH repos/octo/cat/issues/comments/4242 -F body=@"),
        "{log}"
    );
    assert!(!log.contains("POST"), "{log}");
    // off, and outside a pull request: nothing
    std::fs::remove_file(&step.summary).unwrap();
    let r = step.run(root, &[("SG_BASE", &base), ("SG_DIFF", "off")]);
    assert_eq!(r.code, 0);
    let r = step.run(root, &[("SG_BASE", "")]);
    assert_eq!(r.code, 0);
    assert!(r.stderr.contains("not a pull request"), "{}", r.stderr);
    assert!(!step.summary.exists());
}

#[test]
fn the_actions_diff_step_fetches_a_base_a_shallow_checkout_lacks() {
    let dir = repo();
    let origin = dir.path();
    let base = git(origin, &["rev-parse", "HEAD"]).trim().to_string();
    edit(origin);
    git(origin, &["commit", "-qam", "the change"]);
    // as actions/checkout leaves it: the head commit only
    let work = tempfile::tempdir().unwrap();
    let clone = work.path().join("clone");
    git(
        work.path(),
        &[
            "clone",
            "-q",
            "--depth=1",
            &format!("file://{}", origin.display()),
            "clone",
        ],
    );
    let missing = Command::new("git")
        .args(["cat-file", "-e", &format!("{base}^{{commit}}")])
        .current_dir(&clone)
        .status()
        .unwrap();
    assert!(!missing.success(), "the shallow clone should lack the base");
    let step = Step::new();
    let r = step.run(&clone, &[("SG_BASE", &base)]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(Step::read(&step.summary).contains("routing got worse"));
    // a base that exists nowhere: the step says what to do, exit 2
    let r = step.run(
        &clone,
        &[("SG_BASE", "0123456789abcdef0123456789abcdef01234567")],
    );
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("::error::skillsift diff: cannot fetch the base commit"),
        "{}",
        r.stdout
    );
}

#[test]
fn the_html_report_shows_the_same_comparison() {
    let dir = repo();
    let root = dir.path();
    edit(root);
    let out = tempfile::tempdir().unwrap();
    let page = out.path().join("report.html");
    let r = skillsift()
        .args(["report", ".", "-o"])
        .arg(&page)
        .args(["--against", "main"])
        .current_dir(root)
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(0), "{r:?}");
    let html = std::fs::read_to_string(&page).unwrap();
    let at = html
        .find("<section id=\"change\">\n<h2>Change against main</h2>")
        .unwrap_or_else(|| panic!("no change section"));
    let section = &html[at..at + html[at..].find("</section>").unwrap()];
    assert!(
        section.contains("<p class=\"verdict bad\">routing got worse: 1 change for the worse (1 failing a gate), 1 for the better</p>"),
        "{section}"
    );
    assert!(
        section.contains("<tr class=\"bad\"><td>should <q>the server crash errors need a look</q> for <code>log-search</code> ⛔</td><td>#2, <code>incident-notes</code> first (passes, in the top 3)</td><td>#6, <code>incident-notes</code> first (fails: not in the top 3)</td></tr>"),
        "{section}"
    );
    assert!(
        section.contains("<td>should <q>a scanned document of the outage</q> for <code>pdf-tools</code></td><td>#6, <code>incident-notes</code> first (fails: not in the top 3)</td><td>#1 (passes)</td>"),
        "{section}"
    );
    // nothing written into the repository, and a bad revision is exit 2
    assert!(
        git(root, &["status", "--porcelain"])
            .lines()
            .all(|l| l.starts_with(" M skills/"))
    );
    let r = skillsift()
        .args(["report", ".", "-o"])
        .arg(&page)
        .args(["--against", "nope"])
        .current_dir(root)
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("bad revision"));
}

/// In a listing of 3 skills a positive must reach the top 2 (a top 3
/// would always hold it): the rows say the top-k the check used.
#[test]
fn a_lowered_top_k_is_the_one_the_rows_name() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    skill(
        root,
        "log-search",
        "Searches server logs for errors. Use when debugging a crash.",
    );
    skill(
        root,
        "mail-draft",
        "Drafts replies to customer mail about a server crash.",
    );
    skill(
        root,
        "incident-notes",
        "Writes incident notes: the crash, the errors, the server affected.",
    );
    write(
        root,
        "evals/cases/log-search.json",
        r#"{"skill_name": "log-search", "trigger": {"positive": [{"prompt": "the server crash errors need a look"}], "negative": []}, "evals": []}"#,
    );
    git(root, &["init", "-q", "-b", "main"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "base"]);
    skill(
        root,
        "log-search",
        "Reads application output. Use when debugging.",
    );
    let r = diff(root, &["main"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains(
            "(passes, in the top 2) → #3, `incident-notes` first (fails: not in the top 2)"
        ),
        "{}",
        r.stdout
    );
    let doc: Value =
        serde_json::from_str(&diff(root, &["main", "--format", "json"]).stdout).unwrap();
    assert_eq!(doc["prompts"][0]["before"]["top_k"], 2);
}

/// A partial or damaged clone lacks a file's object: the file is named,
/// and what to do.
#[test]
fn a_missing_object_names_its_file() {
    let dir = repo();
    let root = dir.path();
    let oid = git(root, &["rev-parse", "HEAD:skills/pdf-tools/SKILL.md"]);
    let oid = oid.trim();
    std::fs::remove_file(root.join(".git/objects").join(&oid[..2]).join(&oid[2..])).unwrap();
    let r = diff(root, &["HEAD"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr
            .contains("`skills/pdf-tools/SKILL.md` at HEAD: this repository lacks its contents"),
        "{}",
        r.stderr
    );
}

/// A finding on a description that was edited, still there after the edit,
/// is neither new nor fixed.
#[test]
fn a_finding_that_stays_on_an_edited_line_is_neither_new_nor_fixed() {
    let dir = repo();
    let root = dir.path();
    // SG201 (no "Use when …") before and after the edit of its line
    skill(
        root,
        "mail-draft",
        "Drafts replies to customer mail about an outage.",
    );
    let before: Value =
        serde_json::from_str(&diff(root, &["main", "--format", "json"]).stdout).unwrap();
    assert_eq!(before["findings_new"], serde_json::json!([]), "{before:#}");
    assert_eq!(
        before["findings_fixed"],
        serde_json::json!([]),
        "{before:#}"
    );
}

/// A description that pushes the listing over its budget shortens another
/// skill to its name (shown, exit 0); a skill the client no longer lists
/// fails the diff (exit 1).
#[test]
fn skills_newly_shortened_or_left_out_of_the_listing_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    skill(
        root,
        "alpha",
        "Formats release notes from merged pull requests. Use when writing a changelog.",
    );
    skill(
        root,
        "beta",
        "Searches server logs for errors. Use when debugging a crash.",
    );
    skill(
        root,
        "gamma",
        "Resizes images for the web. Use when a page loads slowly.",
    );
    write(
        root,
        "skillsift.toml",
        "[route]\nlisting-budget-chars = 300\n",
    );
    git(root, &["init", "-q", "-b", "main"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "base"]);
    skill(
        root,
        "alpha",
        "Formats release notes from merged pull requests, with sections for features, fixes, breaking changes and contributors, in the project's own style. Use when writing a changelog or a release announcement.",
    );
    let r = diff(root, &["main"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains(
            "\nworse\n  `gamma` in the listing: listed whole → shortened (over budget)\n"
        ),
        "{}",
        r.stdout
    );
    // hidden from the model: no longer listed
    write(
        root,
        "skills/beta/SKILL.md",
        "---\nname: beta\ndescription: Searches server logs for errors. Use when debugging a crash.\ndisable-model-invocation: true\n---\n\n# beta\n",
    );
    let r = diff(root, &["main", "--format", "json"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    let beta = doc["listings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["skill"] == "beta")
        .unwrap_or_else(|| panic!("{doc:#}"));
    assert_eq!(beta["before"], "whole");
    assert_eq!(beta["after"], "left-out");
    assert_eq!(beta["worse"], true);
}
