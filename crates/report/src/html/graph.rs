//! The collision graph: skills as nodes, an edge for every pair whose
//! descriptions reach `collision-warning` (SG511; red from
//! `collision-error`, SG510), its width growing with the cosine, labelled
//! with the words the two share most (as `route::collide` finds them).
//!
//! Only skills in a pair are drawn. Each connected group is laid out by a
//! force-directed layout (Fruchterman–Reingold) started from a fixed
//! spiral and run a fixed number of steps, so the picture is the same
//! every time; groups are packed in rows, the largest first. The table
//! under it lists every pair.

use super::{Esc, coord, cut};
use crate::config::RouteConfig;
use crate::route::Routed;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Width of the drawing, in SVG units.
const WIDTH: f64 = 1000.0;
/// Edges drawn with their words on the picture (more get them on hover).
const LABELLED_EDGES: usize = 60;
/// Characters of a node's name drawn.
const NAME_CHARS: usize = 28;

/// A node's place.
#[derive(Debug, Clone, Copy, PartialEq)]
struct P {
    x: f64,
    y: f64,
}

/// Lay out one connected group: `edges` as (i, j, weight) over `n` nodes.
/// Returns positions inside a box of the returned side length.
fn layout(n: usize, edges: &[(usize, usize, f64)]) -> (Vec<P>, f64) {
    let side = 70.0 * (n as f64).sqrt() + 50.0;
    if n == 1 {
        return (vec![P { x: 0.0, y: 0.0 }], side);
    }
    let k = 0.9 * side / (n as f64).sqrt();
    // a golden-angle spiral: spread out, and the same every time
    let mut p: Vec<P> = (0..n)
        .map(|i| {
            let r = 0.6 * k * (i as f64 + 0.5).sqrt();
            let a = i as f64 * 2.399_963_229_728_653;
            P {
                x: r * a.cos(),
                y: r * a.sin(),
            }
        })
        .collect();
    let steps = ((4.0e6 / (n * n) as f64) as usize).clamp(30, 250);
    let mut disp = vec![P { x: 0.0, y: 0.0 }; n];
    for step in 0..steps {
        let t = side / 10.0 * (1.0 - step as f64 / steps as f64) + 0.5;
        for d in disp.iter_mut() {
            *d = P { x: 0.0, y: 0.0 };
        }
        for i in 0..n {
            for j in i + 1..n {
                let (dx, dy) = (p[i].x - p[j].x, p[i].y - p[j].y);
                let d = (dx * dx + dy * dy).sqrt().max(0.01);
                let f = k * k / d;
                let (fx, fy) = (dx / d * f, dy / d * f);
                disp[i].x += fx;
                disp[i].y += fy;
                disp[j].x -= fx;
                disp[j].y -= fy;
            }
        }
        for &(i, j, w) in edges {
            let (dx, dy) = (p[i].x - p[j].x, p[i].y - p[j].y);
            let d = (dx * dx + dy * dy).sqrt().max(0.01);
            let f = d * d / k * (0.5 + w);
            let (fx, fy) = (dx / d * f, dy / d * f);
            disp[i].x -= fx;
            disp[i].y -= fy;
            disp[j].x += fx;
            disp[j].y += fy;
        }
        for (q, d) in p.iter_mut().zip(&disp) {
            let len = (d.x * d.x + d.y * d.y).sqrt();
            if len > 0.0 {
                let m = len.min(t) / len;
                q.x += d.x * m;
                q.y += d.y * m;
            }
        }
    }
    (p, side)
}

/// The section: picture and table.
pub fn render(routed: &Routed, config: &RouteConfig) -> String {
    let index = &routed.router.index;
    let found = &routed.collisions;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "<p>An edge joins two skills whose name-and-description vectors have a cosine of at least {:.2} (warning, SG511) or {:.2} (error, SG510): an agent choosing by description may take one for the other. Wider edges are more alike; each is labelled with the words the two share most.</p>",
        config.collision_warning, config.collision_error
    );
    if found.is_empty() {
        o.push_str("<p class=\"empty good\">No two descriptions are that alike.</p>\n");
        return o;
    }
    // nodes and groups (union-find over the pairs)
    let mut nodes: Vec<u32> = found.iter().flat_map(|f| [f.pair.a, f.pair.b]).collect();
    nodes.sort_unstable();
    nodes.dedup();
    let at: BTreeMap<u32, usize> = nodes.iter().enumerate().map(|(i, &d)| (d, i)).collect();
    let mut parent: Vec<usize> = (0..nodes.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for f in found {
        let (a, b) = (
            root(&mut parent, at[&f.pair.a]),
            root(&mut parent, at[&f.pair.b]),
        );
        if a != b {
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..nodes.len() {
        let r = root(&mut parent, i);
        groups.entry(r).or_default().push(i);
    }
    let mut groups: Vec<Vec<usize>> = groups.into_values().collect();
    groups.sort_by(|a, b| b.len().cmp(&a.len()).then(a[0].cmp(&b[0])));

    // lay out each group, then pack the groups in rows
    let mut pos = vec![P { x: 0.0, y: 0.0 }; nodes.len()];
    let (mut x, mut y, mut row_h) = (0.0f64, 0.0f64, 0.0f64);
    let margin = 90.0;
    for g in &groups {
        let local: BTreeMap<usize, usize> = g.iter().enumerate().map(|(k, &i)| (i, k)).collect();
        let edges: Vec<(usize, usize, f64)> = found
            .iter()
            .filter_map(|f| {
                Some((
                    *local.get(&at[&f.pair.a])?,
                    *local.get(&at[&f.pair.b])?,
                    f.pair.similarity,
                ))
            })
            .collect();
        let (p, _) = layout(g.len(), &edges);
        let (minx, maxx) = p
            .iter()
            .fold((f64::MAX, f64::MIN), |(a, b), q| (a.min(q.x), b.max(q.x)));
        let (miny, maxy) = p
            .iter()
            .fold((f64::MAX, f64::MIN), |(a, b), q| (a.min(q.y), b.max(q.y)));
        // scale a group wider than the drawing down to fit
        let w = maxx - minx;
        let scale = if w + 2.0 * margin > WIDTH {
            (WIDTH - 2.0 * margin) / w
        } else {
            1.0
        };
        let (gw, gh) = (w * scale + 2.0 * margin, (maxy - miny) * scale + 60.0);
        if x > 0.0 && x + gw > WIDTH {
            x = 0.0;
            y += row_h;
            row_h = 0.0;
        }
        for (&i, q) in g.iter().zip(&p) {
            pos[i] = P {
                x: x + margin + (q.x - minx) * scale,
                y: y + 30.0 + (q.y - miny) * scale,
            };
        }
        x += gw;
        row_h = row_h.max(gh);
    }
    let height = y + row_h;
    let _ = write!(
        o,
        "<div class=\"graph-wrap\"><svg class=\"graph\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" role=\"img\" aria-label=\"collision graph of {} skills\">\n<g class=\"edges\">",
        coord(WIDTH),
        coord(height),
        coord(WIDTH),
        coord(height),
        nodes.len()
    );
    let label = |f: &crate::route::collide::Found, n: usize| {
        f.shared
            .iter()
            .take(n)
            .map(|(w, _)| w.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    for f in found {
        let (a, b) = (pos[at[&f.pair.a]], pos[at[&f.pair.b]]);
        let _ = write!(
            o,
            "<line class=\"e {}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke-width=\"{}\"><title>{}</title></line>",
            if f.error { "err" } else { "warn" },
            coord(a.x),
            coord(a.y),
            coord(b.x),
            coord(b.y),
            coord(
                1.0 + 8.0 * (f.pair.similarity - config.collision_warning).max(0.0)
                    / (1.0 - config.collision_warning).max(0.01)
            ),
            Esc(&format!(
                "{} — {}: cosine {:.2}; shared: {}",
                index.doc(f.pair.a).name,
                index.doc(f.pair.b).name,
                f.pair.similarity,
                label(f, 5)
            ))
        );
    }
    o.push_str("</g>\n<g class=\"edge-labels\">");
    if found.len() <= LABELLED_EDGES {
        for f in found {
            let (a, b) = (pos[at[&f.pair.a]], pos[at[&f.pair.b]]);
            let _ = write!(
                o,
                "<text x=\"{}\" y=\"{}\">{}</text>",
                coord((a.x + b.x) / 2.0),
                coord((a.y + b.y) / 2.0 - 3.0),
                Esc(&cut(&label(f, 3), 40))
            );
        }
    }
    o.push_str("</g>\n<g class=\"nodes\">");
    for (i, &d) in nodes.iter().enumerate() {
        let q = pos[i];
        let name = &index.doc(d).name;
        let _ = write!(
            o,
            "<a href=\"#s{d}\"><circle cx=\"{}\" cy=\"{}\" r=\"6\"><title>{}</title></circle><text x=\"{}\" y=\"{}\">{}</text></a>",
            coord(q.x),
            coord(q.y),
            Esc(name),
            coord(q.x),
            coord(q.y + 18.0),
            Esc(&cut(name, NAME_CHARS))
        );
    }
    o.push_str("</g>\n</svg></div>\n");

    // the table
    let mut rows: Vec<&crate::route::collide::Found> = found.iter().collect();
    rows.sort_by(|a, b| {
        b.pair
            .similarity
            .total_cmp(&a.pair.similarity)
            .then((a.pair.a, a.pair.b).cmp(&(b.pair.a, b.pair.b)))
    });
    o.push_str("<table class=\"list\"><thead><tr><th>skill</th><th>skill</th><th>cosine</th><th>level</th><th>words they share most (contribution)</th></tr></thead><tbody>\n");
    for f in rows {
        let words = f
            .shared
            .iter()
            .map(|(w, c)| format!("<code>{}</code> ({c:.2})", Esc(w)))
            .collect::<Vec<_>>()
            .join(", ");
        let _ = writeln!(
            o,
            "<tr><td><a href=\"#s{}\">{}</a></td><td><a href=\"#s{}\">{}</a></td><td>{:.2}</td><td class=\"{}\">{}</td><td>{words}</td></tr>",
            f.pair.a,
            Esc(&index.doc(f.pair.a).name),
            f.pair.b,
            Esc(&index.doc(f.pair.b).name),
            f.pair.similarity,
            if f.error { "fail" } else { "warnc" },
            if f.error {
                "error (SG510)"
            } else {
                "warning (SG511)"
            }
        );
    }
    o.push_str("</tbody></table>\n");
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_is_the_same_every_time_and_keeps_nodes_apart() {
        let edges = [(0, 1, 0.6), (1, 2, 0.8), (2, 0, 0.5), (2, 3, 0.9)];
        let (a, _) = layout(4, &edges);
        let (b, _) = layout(4, &edges);
        assert_eq!(a, b);
        for i in 0..4 {
            for j in i + 1..4 {
                let d = ((a[i].x - a[j].x).powi(2) + (a[i].y - a[j].y).powi(2)).sqrt();
                assert!(d > 10.0, "{i} and {j} overlap: {d}");
            }
        }
    }
}
