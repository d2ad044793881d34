//! An English stemmer that stops at inflection: Snowball English's
//! steps 1a–1c (plurals and third persons, `-ed`/`-ing` with their spelling
//! changes, final `y` → `i`) and the final-`e` rule of its step 5 (so that
//! `merge`, `merges`, `merging` and `branch`, `branches` meet), without the
//! derivational steps 2–4 that merge `developers`/`development` or
//! `responsive`/`responses`.
//!
//! A listing entry is a sentence or two, so a stemmer that conflates words
//! of different meaning costs more there than it gains; inflections are the
//! variation between a user's prompt and a description that keeps the
//! meaning ("adding"/"add", "reviews"/"review", "applies"/"apply").
//!
//! One deviation from the Snowball step: a doubled final consonant left by
//! `-ed`/`-ing` is undoubled only when more than three letters remain
//! (`running` → `run`, `hopping` → `hop`), since the three-letter words
//! ending in a double are roots (`add`, `egg`, `err`, `inn`, `odd`):
//! `adding` → `add`, not `ad`.

use std::borrow::Cow;

fn vowel(c: u8) -> bool {
    matches!(c, b'a' | b'e' | b'i' | b'o' | b'u' | b'y')
}

/// Vowel flags of `w`, with `y` a consonant at the start and after a vowel
/// (Snowball's `Y`).
fn vowels(w: &[u8]) -> Vec<bool> {
    let mut v: Vec<bool> = Vec::with_capacity(w.len());
    for (i, &c) in w.iter().enumerate() {
        let is = if c == b'y' {
            i > 0 && !v[i - 1]
        } else {
            vowel(c)
        };
        v.push(is);
    }
    v
}

/// Start of R1: after the first non-vowel that follows a vowel (after the
/// prefixes Snowball singles out).
fn r1(w: &[u8], v: &[bool]) -> usize {
    for p in [
        &b"gener"[..],
        b"commun",
        b"arsen",
        b"past",
        b"univers",
        b"later",
        b"emerg",
        b"organ",
    ] {
        if w.starts_with(p) {
            return p.len();
        }
    }
    (1..w.len())
        .find(|&i| !v[i] && v[i - 1])
        .map_or(w.len(), |i| i + 1)
}

/// Ends in a short syllable: non-vowel, vowel, non-vowel other than
/// `w`, `x`, `Y`; or, as the whole word, vowel then non-vowel.
fn short_syllable(w: &[u8], v: &[bool]) -> bool {
    let n = w.len();
    if n == 2 {
        return v[0] && !v[1];
    }
    n >= 3
        && !v[n - 3]
        && v[n - 2]
        && !v[n - 1]
        && !matches!(w[n - 1], b'w' | b'x')
        && w[n - 1] != b'y'
}

fn has_vowel(v: &[bool]) -> bool {
    v.iter().any(|&x| x)
}

/// The inflectional stem of a lowercase word; words that are not plain
/// ASCII letters, and words of one or two letters, are left alone.
pub fn stem(word: &str) -> Cow<'_, str> {
    if word.len() <= 2 || !word.bytes().all(|c| c.is_ascii_lowercase()) {
        return Cow::Borrowed(word);
    }
    let mut w: Vec<u8> = word.as_bytes().to_vec();
    step_1a(&mut w);
    step_1b(&mut w);
    step_1c(&mut w);
    step_5e(&mut w);
    if w == word.as_bytes() {
        Cow::Borrowed(word)
    } else {
        // only ASCII letters were removed or added
        Cow::Owned(String::from_utf8(w).unwrap_or_else(|_| word.to_string()))
    }
}

fn ends(w: &[u8], s: &str) -> bool {
    w.ends_with(s.as_bytes())
}

fn step_1a(w: &mut Vec<u8>) {
    let n = w.len();
    if ends(w, "sses") {
        w.truncate(n - 2);
    } else if ends(w, "ied") || ends(w, "ies") {
        // more than one letter before: `i`, else `ie` (ties → tie)
        w.truncate(if n > 4 { n - 2 } else { n - 1 });
    } else if ends(w, "us") || ends(w, "ss") {
    } else if ends(w, "s") {
        // delete when a vowel comes before the letter preceding the `s`
        let v = vowels(&w[..n - 1]);
        if n >= 3 && has_vowel(&v[..n - 2]) {
            w.truncate(n - 1);
        }
    }
}

fn step_1b(w: &mut Vec<u8>) {
    let v = vowels(w);
    let r = r1(w, &v);
    for s in ["eedly", "eed"] {
        if ends(w, s) {
            if w.len() - s.len() >= r {
                w.truncate(w.len() - s.len() + 2);
            }
            return;
        }
    }
    let Some(s) = ["ingly", "edly", "ing", "ed"]
        .into_iter()
        .find(|s| ends(w, s))
    else {
        return;
    };
    let base = w.len() - s.len();
    if !has_vowel(&v[..base]) {
        return;
    }
    w.truncate(base);
    if ends(w, "at") || ends(w, "bl") || ends(w, "iz") {
        w.push(b'e');
        return;
    }
    let n = w.len();
    if n >= 2 && w[n - 1] == w[n - 2] && b"bdfgmnprt".contains(&w[n - 1]) {
        if n > 3 {
            w.pop();
        }
        return;
    }
    let v = vowels(w);
    if r1(w, &v) >= w.len() && short_syllable(w, &v) {
        w.push(b'e');
    }
}

fn step_1c(w: &mut [u8]) {
    let n = w.len();
    if n > 2 && w[n - 1] == b'y' && !vowel(w[n - 2]) {
        w[n - 1] = b'i';
    }
}

/// Start of R2: R1 taken again from the start of R1.
fn r2(w: &[u8], v: &[bool], r1: usize) -> usize {
    (r1 + 1..w.len())
        .find(|&i| !v[i] && v[i - 1])
        .map_or(w.len(), |i| i + 1)
}

/// Snowball's step 5 for `e`: delete a final `e` in R2, or in R1 when what
/// precedes it is not a short syllable (`hope`, `use` keep theirs).
fn step_5e(w: &mut Vec<u8>) {
    let n = w.len();
    if n < 2 || w[n - 1] != b'e' {
        return;
    }
    let v = vowels(w);
    let r = r1(w, &v);
    let at = n - 1;
    if at >= r2(w, &v, r) || (at >= r && !short_syllable(&w[..at], &v[..at])) {
        w.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::stem;

    #[test]
    fn inflections_meet_their_base_word() {
        for (a, b) in [
            ("adding", "add"),
            ("adds", "add"),
            ("added", "add"),
            ("reviews", "review"),
            ("reviewing", "review"),
            ("running", "run"),
            ("hopping", "hop"),
            ("hoping", "hope"),
            ("applies", "apply"),
            ("classes", "class"),
            ("created", "create"),
            ("tests", "test"),
            ("ties", "tie"),
            ("merging", "merge"),
            ("merges", "merge"),
            ("branches", "branch"),
            ("making", "make"),
            ("using", "use"),
            ("creating", "create"),
        ] {
            assert_eq!(stem(a), stem(b), "{a} / {b}");
        }
    }

    #[test]
    fn derivations_stay_apart() {
        for (a, b) in [
            ("developers", "development"),
            ("responsive", "responses"),
            ("observability", "observe"),
        ] {
            assert_ne!(stem(a), stem(b), "{a} / {b}");
        }
    }

    #[test]
    fn short_and_non_ascii_words_are_left_alone() {
        assert_eq!(stem("pr"), "pr");
        assert_eq!(stem("gas"), "gas");
        assert_eq!(stem("this"), "this");
        assert_eq!(stem("hope"), "hope");
        assert_eq!(stem("status"), "status");
        assert_eq!(stem("naïve"), "naïve");
    }
}
