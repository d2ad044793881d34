//! The crate graph is the architecture: ARCHITECTURE.md's "Crate graph"
//! table lists the workspace's crates bottom to top with what each depends
//! on, and `cargo metadata` must agree with it exactly. No edge runs from a
//! crate to one listed after it, and nothing but the binary uses clap.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// One row of the table: the crate, its layer (row order) and the crates
/// it names as dependencies.
struct Layer {
    name: String,
    deps: BTreeSet<String>,
}

/// The rows of ARCHITECTURE.md's crate table, in order.
fn documented() -> Vec<Layer> {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md"))
            .expect("ARCHITECTURE.md");
    let section = text
        .split("\n## Crate graph\n")
        .nth(1)
        .expect("ARCHITECTURE.md has a `## Crate graph` section");
    let section = section.split("\n## ").next().unwrap();
    let mut layers = Vec::new();
    for line in section.lines() {
        let Some(row) = line.strip_prefix('|') else {
            continue;
        };
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let Ok(n) = cells[0].parse::<usize>() else {
            continue;
        };
        assert_eq!(n, layers.len() + 1, "layers are numbered in order: {line}");
        assert!(
            cells.len() >= 4,
            "a row is `| layer | crate | depends on | job |`: {line}"
        );
        let name = cells[1].trim_matches('`').to_string();
        let deps = cells[2]
            .split(',')
            .map(|d| d.trim().trim_end_matches("(tests only)").trim().to_string())
            .filter(|d| !d.is_empty())
            .collect();
        layers.push(Layer { name, deps });
    }
    assert!(layers.len() > 1, "the crate table has rows");
    layers
}

/// Each workspace package by the name the table uses (its folder under
/// `crates/`, or the root package's own name) with its workspace
/// dependencies (every kind) and whether it depends on clap.
fn actual() -> BTreeMap<String, (BTreeSet<String>, bool)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ])
        .current_dir(root)
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).unwrap();
    let packages = meta["packages"].as_array().unwrap();
    let root_manifest = root.join("Cargo.toml");
    let label = |p: &Value| -> String {
        let manifest = Path::new(p["manifest_path"].as_str().unwrap());
        if manifest == root_manifest {
            p["name"].as_str().unwrap().to_string()
        } else {
            let dir = manifest.parent().unwrap();
            assert_eq!(
                dir.parent().unwrap(),
                root.join("crates"),
                "library crates live in crates/<layer>/"
            );
            dir.file_name().unwrap().to_string_lossy().into_owned()
        }
    };
    let by_package: BTreeMap<&str, String> = packages
        .iter()
        .map(|p| (p["name"].as_str().unwrap(), label(p)))
        .collect();
    packages
        .iter()
        .map(|p| {
            let deps = p["dependencies"].as_array().unwrap();
            let internal = deps
                .iter()
                .filter_map(|d| by_package.get(d["name"].as_str().unwrap()).cloned())
                .collect();
            let clap = deps.iter().any(|d| d["name"] == "clap");
            (label(p), (internal, clap))
        })
        .collect()
}

#[test]
fn the_crate_graph_is_the_documented_one_and_runs_downward_only() {
    let layers = documented();
    let actual = actual();
    let order: BTreeMap<&str, usize> = layers
        .iter()
        .enumerate()
        .map(|(i, l)| (l.name.as_str(), i))
        .collect();
    let listed: BTreeSet<&str> = order.keys().copied().collect();
    let members: BTreeSet<&str> = actual.keys().map(String::as_str).collect();
    assert_eq!(
        listed, members,
        "ARCHITECTURE.md lists exactly the workspace's crates"
    );
    let binary = &layers.last().unwrap().name;
    for layer in &layers {
        let (deps, clap) = &actual[&layer.name];
        assert_eq!(
            &layer.deps, deps,
            "ARCHITECTURE.md lists exactly what `{}` depends on",
            layer.name
        );
        for d in deps {
            assert!(
                order[d.as_str()] < order[layer.name.as_str()],
                "`{}` depends on `{d}`, which is not below it",
                layer.name
            );
        }
        assert_eq!(
            *clap,
            &layer.name == binary,
            "only the binary (`{binary}`) depends on clap; `{}` {}",
            layer.name,
            if *clap { "does" } else { "does not" }
        );
    }
}
