//! What a skill's files hold, in a few bits a byte of their long runs:
//! enough to know that a secret's value learnt after the skill was read
//! stands nowhere in them, without reading them again
//! (`Catalog::load_with` in the catalog layer).
//!
//! A value is masked wherever it stands ([`crate::secrets`]), so a value
//! found only after a skill was read may stand unmasked in it. Every value
//! is at least [`WINDOW`] bytes, and most are made only of the bytes of
//! [`CLASS`] (a token's alphabet: letters, digits, `/+_-.=~`): such a
//! value stands in a text only inside a run of those bytes, and only where
//! every [`WINDOW`]-byte window of the value does. [`Grams`] is a Bloom
//! filter of the windows of every such run of a skill's files, as read,
//! one every [`STRIDE`] bytes: when the value's windows at each of those
//! offsets miss one, the value is in none of the files. A filter can say
//! "maybe" falsely (about one window in 30 at [`BITS`] bits a window);
//! "maybe", or a value too short or with a byte outside [`CLASS`], means
//! reading the files again, as without a filter: the answer is never
//! wrong, only sometimes slower.

use std::sync::atomic::{AtomicUsize, Ordering};

/// The bytes of a window, and the shortest value remembered
/// ([`crate::secrets`]).
pub const WINDOW: usize = 12;

/// Bits of filter a window.
const BITS: usize = 8;

/// The bytes a value is made of when a filter can rule it out.
pub static CLASS: base::runs::Class = {
    let mut c = [false; 256];
    let mut b = 0;
    while b < 256 {
        let x = b as u8;
        c[b] = x.is_ascii_alphanumeric()
            || x == b'/'
            || x == b'+'
            || x == b'_'
            || x == b'-'
            || x == b'.'
            || x == b'='
            || x == b'~';
        b += 1;
    }
    c
};

/// Bytes of filter all skills together may hold (about one byte a byte of
/// long runs read: the mirror of 15,728 skills holds some 18 MB); past it,
/// a skill has no filter and is read again when a value is learnt late.
const BUDGET: usize = 64 << 20;

static USED: AtomicUsize = AtomicUsize::new(0);

/// A Bloom filter of the [`WINDOW`]-byte windows of the runs of [`CLASS`]
/// in some texts (one 64-bit word a window, four bits in it).
#[derive(Debug)]
pub struct Grams {
    words: Box<[u64]>,
}

/// A window's hash.
fn hash(w: &[u8]) -> u64 {
    let a = u64::from_le_bytes(w[..8].try_into().unwrap_or_default());
    let b = u64::from(u32::from_le_bytes(w[8..12].try_into().unwrap_or_default()));
    let h = a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    let h = (h ^ (h >> 31)).wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 29)
}

/// The filter holds the windows of a run that start [`STRIDE`] bytes
/// apart (a quarter of the work and of the memory). A value stands at
/// some offset in a run, so the windows of one of its [`STRIDE`] residues
/// are all held: a value needs a window in each, so at least
/// `WINDOW + STRIDE - 1` bytes.
const STRIDE: usize = 4;

/// The hashes of a value's windows, or `None` when no filter can rule it
/// out (shorter than `WINDOW + STRIDE - 1`, or a byte outside [`CLASS`]).
pub fn windows_of(value: &[u8]) -> Option<Vec<u64>> {
    (value.len() >= WINDOW + STRIDE - 1 && value.iter().all(|&b| CLASS[b as usize]))
        .then(|| value.windows(WINDOW).map(hash).collect())
}

thread_local! {
    /// The hashes of the texts at hand, kept between calls.
    static HASHES: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Grams {
    /// The filter of `texts` (as read, before any masking), or `None` past
    /// the budget.
    pub fn of(texts: &[&[u8]]) -> Option<Grams> {
        HASHES.with(|hashes| {
            let mut hashes = hashes.borrow_mut();
            hashes.clear();
            for t in texts {
                base::runs::long_runs(t, &CLASS, WINDOW, |s, e| {
                    hashes.extend(
                        (s..=e - WINDOW)
                            .step_by(STRIDE)
                            .map(|i| hash(&t[i..i + WINDOW])),
                    );
                    true
                });
            }
            let g = Grams::from_hashes(&hashes);
            if hashes.capacity() > 1 << 20 {
                *hashes = Vec::new();
            }
            g
        })
    }

    fn from_hashes(hashes: &[u64]) -> Option<Grams> {
        let words = (hashes.len() * BITS).div_ceil(64).max(1);
        USED.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |used| {
            (used + words * 8 <= BUDGET).then_some(used + words * 8)
        })
        .ok()?;
        let mut g = Grams {
            words: vec![0; words].into_boxed_slice(),
        };
        for &h in hashes {
            let (i, m) = g.slot(h);
            g.words[i] |= m;
        }
        Some(g)
    }

    /// The word a hash falls in, and its bits there.
    fn slot(&self, h: u64) -> (usize, u64) {
        let i = ((h & 0xFFFF_FFFF) * self.words.len() as u64) >> 32;
        let m = (0..4).fold(0u64, |m, k| m | 1 << ((h >> (32 + 6 * k)) & 63));
        (i as usize, m)
    }

    fn holds(&self, h: u64) -> bool {
        let (i, m) = self.slot(h);
        self.words[i] & m == m
    }

    /// Whether a value whose windows hash to `windows` ([`windows_of`])
    /// may stand in the texts: `false` means it does not.
    pub fn may_hold(&self, windows: &[u64]) -> bool {
        (0..STRIDE).any(|r| {
            windows
                .iter()
                .skip(r)
                .step_by(STRIDE)
                .all(|&h| self.holds(h))
        })
    }
}

impl Drop for Grams {
    fn drop(&mut self) {
        USED.fetch_sub(self.words.len() * 8, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_in_a_text_is_always_maybe() {
        let texts: [&[u8]; 2] = [
            b"export KEY=AKIAXXXXXXXXXXXXXXXX and more prose here\n",
            b"prefix_ghp_abcdefghijklmnopqrstuvwxyz0123456789_suffix",
        ];
        let g = Grams::of(&texts).unwrap();
        for v in [
            &b"KEY=AKIAXXXXXXXXXXXXXXXX"[..],
            b"AKIAXXXXXXXXXXXX",
            b"ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            b"abcdefghijklmnopqrstuvwxyz",
            b"prefix_ghp_abcdefghijklmnopqrstuvwxyz0123456789_suffix",
        ] {
            assert!(g.may_hold(&windows_of(v).unwrap()), "{v:?}");
        }
    }

    #[test]
    fn every_value_standing_in_a_run_is_maybe_at_every_offset() {
        let text = b"a sk-ant-api03-AbCdEf_GhIj-KlMn0123456789+/= b ~x.y.z.abcdefghijklmnopq\n\
            KEY='xoxb-123456789012-ABCDEFGHIJKLMNOP' end";
        let g = Grams::of(&[text.as_slice()]).unwrap();
        let mut tried = 0;
        for s in 0..text.len() {
            for e in s + 15..=text.len().min(s + 48) {
                let v = &text[s..e];
                if let Some(w) = windows_of(v) {
                    assert!(g.may_hold(&w), "{:?}", String::from_utf8_lossy(v));
                    tried += 1;
                }
            }
        }
        assert!(tried > 300, "{tried}");
    }

    #[test]
    fn most_values_not_in_a_text_are_ruled_out() {
        let text = (0..2000)
            .map(|i| format!("scripts/file_{i:05}.py token{i:08}x "))
            .collect::<String>();
        let g = Grams::of(&[text.as_bytes()]).unwrap();
        let mut maybe = 0;
        for i in 0..1000 {
            let v = format!("sk-proj-{i:08}abcdefghij");
            maybe += usize::from(g.may_hold(&windows_of(v.as_bytes()).unwrap()));
        }
        assert!(maybe < 10, "{maybe} of 1000 values absent said maybe");
    }

    #[test]
    fn what_no_filter_can_rule_out() {
        assert_eq!(windows_of(b"short-value"), None);
        assert_eq!(windows_of(b"abcdefghijklmn"), None);
        assert_eq!(windows_of(b"Proc-Type: 4,ENCRYPTED"), None);
        assert!(windows_of(b"abcdefghijklmno").is_some());
        // a text without a long run: every value in the class is ruled out
        let g = Grams::of(&[b"plain prose, nothing long in it at all".as_slice()]).unwrap();
        assert!(!g.may_hold(&windows_of(b"abcdefghijklmnop").unwrap()));
    }
}
