//! Finding long runs of bytes of one class (base64's alphabet, the bytes
//! of the secrets known so far) without reading every byte: the literal
//! prefilter several text scans share.

/// A set of bytes, as a table.
pub type Class = [bool; 256];

/// Call `f(start, end)` for every maximal run of `text` of at least `min`
/// bytes all in `class`, in order; stop when `f` returns `false`. It reads
/// the last byte of each window of `min` first and jumps past it when it
/// is not in `class`, so on prose it reads about one byte in `min`.
pub fn long_runs(text: &[u8], class: &Class, min: usize, mut f: impl FnMut(usize, usize) -> bool) {
    let min = min.max(1);
    let mut from = 0;
    // `text[from - 1]`, when there is one, is never in `class`: a run
    // found at `from` starts there
    while from + min <= text.len() {
        let last = from + min - 1;
        match (from..=last).rev().find(|&i| !class[text[i] as usize]) {
            Some(i) => from = i + 1,
            None => {
                let mut end = last + 1;
                while end < text.len() && class[text[end] as usize] {
                    end += 1;
                }
                if !f(from, end) {
                    return;
                }
                from = end + 1;
            }
        }
    }
}

/// Whether `text` holds a run of at least `min` bytes all in `class`.
pub fn has_long_run(text: &[u8], class: &Class, min: usize) -> bool {
    let mut found = false;
    long_runs(text, class, min, |_, _| {
        found = true;
        false
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letters() -> Class {
        let mut c = [false; 256];
        for b in b'a'..=b'z' {
            c[b as usize] = true;
        }
        c
    }

    fn runs(text: &str, min: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        long_runs(text.as_bytes(), &letters(), min, |s, e| {
            out.push((s, e));
            true
        });
        out
    }

    #[test]
    fn every_maximal_run_of_the_length_is_found() {
        assert_eq!(runs("", 3), vec![]);
        assert_eq!(runs("ab cd", 3), vec![]);
        assert_eq!(runs("abc", 3), vec![(0, 3)]);
        assert_eq!(runs("x abcdef y1 ghi", 3), vec![(2, 8), (12, 15)]);
        assert_eq!(runs("abcd1abcd", 4), vec![(0, 4), (5, 9)]);
        assert_eq!(runs("1abcd", 1), vec![(1, 5)]);
        assert!(!has_long_run(b"ab1cd", &letters(), 3));
        assert!(has_long_run(b"ab1cde", &letters(), 3));
    }

    #[test]
    fn the_same_runs_as_reading_every_byte() {
        // every string over a small alphabet up to length 9
        let alphabet = [b'a', b'b', b' '];
        for len in 0..=9u32 {
            for n in 0..3usize.pow(len) {
                let mut k = n;
                let text: Vec<u8> = (0..len)
                    .map(|_| {
                        let b = alphabet[k % 3];
                        k /= 3;
                        b
                    })
                    .collect();
                for min in 1..=4 {
                    let mut want = Vec::new();
                    let mut i = 0;
                    while i < text.len() {
                        if text[i] == b' ' {
                            i += 1;
                            continue;
                        }
                        let s = i;
                        while i < text.len() && text[i] != b' ' {
                            i += 1;
                        }
                        if i - s >= min {
                            want.push((s, i));
                        }
                    }
                    let mut got = Vec::new();
                    long_runs(&text, &letters(), min, |s, e| {
                        got.push((s, e));
                        true
                    });
                    assert_eq!(got, want, "{:?} min {min}", String::from_utf8_lossy(&text));
                }
            }
        }
    }
}
