//! Paired task uplift: a percentile bootstrap interval over per-case
//! differences and an exact two-sided sign test.
//!
//! Every function here is pure and deterministic: the same input and seed
//! give the same bits on every platform (IEEE-754 doubles, a fixed order of
//! operations, an integer PRNG).

/// Bootstrap resamples drawn for the interval.
pub const RESAMPLES: u32 = 10_000;
/// Name of the generator recorded in reports.
pub const RNG_NAME: &str = "splitmix64";

/// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014; the constants of Vigna's public-domain
/// `splitmix64.c`). The state advances by the golden-ratio increment
/// 0x9E3779B97F4A7C15 and each output is the state passed through a fixed
/// mixing function. Period 2^64; the seed is the initial state.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n` (`n > 0`) without modulo bias: Lemire's
    /// multiply-and-shift ("Fast random integer generation in an interval",
    /// 2019): take the high 64 bits of `x · n`, redrawing `x` while the low
    /// 64 bits fall below `2^64 mod n`.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below(0)");
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as u64
    }
}

/// Arithmetic mean; `None` for no values.
pub fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// The p-th quantile (0 ≤ p ≤ 1) of sorted values by linear interpolation
/// between order statistics, Hyndman & Fan (1996) definition 7 (the default
/// of R's `quantile` and NumPy's `percentile`): with h = (n − 1)·p,
/// Q = x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]) (0-based). `None` when empty.
pub fn percentile_type7(sorted: &[f64], p: f64) -> Option<f64> {
    let n = sorted.len();
    if n == 0 {
        return None;
    }
    let h = (n - 1) as f64 * p.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(n - 1);
    Some(sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo]))
}

/// Means of `resamples` bootstrap resamples of `values`: each resample draws
/// `values.len()` indices uniformly with replacement ([`SplitMix64::below`],
/// seeded with `seed`, drawn in order) and takes the mean of the values
/// drawn (summed in draw order). Returned sorted ascending.
pub fn bootstrap_means(values: &[f64], resamples: u32, seed: u64) -> Vec<f64> {
    let n = values.len();
    if n == 0 {
        return Vec::new();
    }
    let mut rng = SplitMix64::new(seed);
    let mut means: Vec<f64> = (0..resamples)
        .map(|_| {
            let mut sum = 0.0;
            for _ in 0..n {
                sum += values[rng.below(n as u64) as usize];
            }
            sum / n as f64
        })
        .collect();
    means.sort_by(f64::total_cmp);
    means
}

/// A percentile bootstrap interval: the (1 − level)/2 and (1 + level)/2
/// type-7 quantiles of [`bootstrap_means`]. `None` for no values.
pub fn bootstrap_ci(values: &[f64], resamples: u32, seed: u64, level: f64) -> Option<(f64, f64)> {
    let means = bootstrap_means(values, resamples, seed);
    let lo = percentile_type7(&means, (1.0 - level) / 2.0)?;
    let hi = percentile_type7(&means, (1.0 + level) / 2.0)?;
    Some((lo, hi))
}

/// The interval's percentiles as exact fractions: 2.5 % = 1/40 and
/// 97.5 % = 39/40 (a 95 % interval).
pub const P_LOW: (u64, u64) = (1, 40);
pub const P_HIGH: (u64, u64) = (39, 40);

/// Per-case values as exact fractions `nums[i] / den` over one common
/// denominator, so that means, resample means and percentiles are computed
/// in integers and rounded to a double once, at the end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fractions {
    pub nums: Vec<i64>,
    pub den: u64,
}

impl Fractions {
    /// From `(numerator, denominator)` pairs (denominators > 0); `None`
    /// when the least common denominator or a scaled numerator overflows 64
    /// bits.
    pub fn new(parts: &[(i64, u64)]) -> Option<Fractions> {
        let mut den: u64 = 1;
        for &(_, d) in parts {
            if d == 0 {
                return None;
            }
            den = (den / gcd(den, d)).checked_mul(d)?;
        }
        let nums = parts
            .iter()
            .map(|&(n, d)| n.checked_mul(i64::try_from(den / d).ok()?))
            .collect::<Option<Vec<i64>>>()?;
        Some(Fractions { nums, den })
    }

    /// The mean, rounded once (exact inputs below 2^53).
    pub fn mean(&self) -> Option<f64> {
        if self.nums.is_empty() {
            return None;
        }
        let sum: i128 = self.nums.iter().map(|&n| i128::from(n)).sum();
        Some(ratio(sum, self.nums.len() as u128 * u128::from(self.den)))
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `num / den` as a double: one correctly rounded division when both fit
/// in 53 bits.
fn ratio(num: i128, den: u128) -> f64 {
    num as f64 / den as f64
}

/// Sums of `resamples` bootstrap resamples of integer values, with the same
/// draws as [`bootstrap_means`] (so `sum / n` is that resample's mean),
/// sorted ascending.
pub fn bootstrap_sums(values: &[i64], resamples: u32, seed: u64) -> Vec<i128> {
    let n = values.len();
    if n == 0 {
        return Vec::new();
    }
    let mut rng = SplitMix64::new(seed);
    let mut sums: Vec<i128> = (0..resamples)
        .map(|_| {
            (0..n)
                .map(|_| i128::from(values[rng.below(n as u64) as usize]))
                .sum()
        })
        .collect();
    sums.sort_unstable();
    sums
}

/// Hyndman–Fan type 7 on sorted integers at an exact fraction p = num/den:
/// h = (n − 1)·num/den, Q = x[⌊h⌋] + frac(h)·(x[⌊h⌋+1] − x[⌊h⌋]), returned
/// as the numerator of Q·den (so Q = result / den). `None` when empty.
pub fn percentile_type7_exact(sorted: &[i128], num: u64, den: u64) -> Option<i128> {
    let n = sorted.len();
    if n == 0 || den == 0 || num > den {
        return None;
    }
    let scaled = (n as u128 - 1) * u128::from(num);
    let lo = (scaled / u128::from(den)) as usize;
    let frac = (scaled % u128::from(den)) as i128;
    let hi = (lo + 1).min(n - 1);
    Some(sorted[lo] * i128::from(den) + frac * (sorted[hi] - sorted[lo]))
}

/// The percentile bootstrap interval of the mean of exact fractions:
/// resample sums from [`bootstrap_sums`], the [`P_LOW`] and [`P_HIGH`]
/// type-7 percentiles taken exactly, each divided by n·den once.
pub fn bootstrap_ci_exact(values: &Fractions, resamples: u32, seed: u64) -> Option<(f64, f64)> {
    let sums = bootstrap_sums(&values.nums, resamples, seed);
    let scale = values.nums.len() as u128 * u128::from(values.den);
    let lo = percentile_type7_exact(&sums, P_LOW.0, P_LOW.1)?;
    let hi = percentile_type7_exact(&sums, P_HIGH.0, P_HIGH.1)?;
    Some((
        ratio(lo, scale * u128::from(P_LOW.1)),
        ratio(hi, scale * u128::from(P_HIGH.1)),
    ))
}

/// The exact two-sided sign test: with n nonzero differences of which
/// `positive` are above 0 and `negative` below, k = min(positive, negative)
/// and p = min(1, 2·Σ_{i=0..k} C(n, i) / 2^n); p = 1 when n = 0.
///
/// The binomial sum is computed exactly in arbitrary-precision integers
/// (C(n, i+1) = C(n, i)·(n − i)/(i + 1), every division exact), then
/// divided by 2^(n−1) with a single rounding to the nearest double, so p is
/// correctly rounded for any n (below 2^-1022 it is subnormal and may be
/// rounded twice; below 2^-1074 it is 0).
pub fn sign_test_p(positive: u64, negative: u64) -> f64 {
    let n = positive + negative;
    if n == 0 {
        return 1.0;
    }
    let k = positive.min(negative);
    let mut term = Big::from(1);
    let mut sum = Big::from(1);
    for i in 0..k {
        term.mul_small(n - i);
        term.div_small_exact(i + 1);
        sum.add(&term);
    }
    // p = sum / 2^(n-1); 2·sum ≥ 2^n exactly when p ≥ 1.
    if sum.bits() > n - 1 {
        return 1.0;
    }
    sum.to_f64_scaled(-((n - 1) as i64)).min(1.0)
}

/// A non-negative big integer, little-endian 64-bit limbs (no leading zero
/// limbs).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Big(Vec<u64>);

impl Big {
    fn from(v: u64) -> Big {
        let mut b = Big(vec![v]);
        b.trim();
        b
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn mul_small(&mut self, m: u64) {
        let mut carry: u128 = 0;
        for limb in &mut self.0 {
            let t = u128::from(*limb) * u128::from(m) + carry;
            *limb = t as u64;
            carry = t >> 64;
        }
        if carry > 0 {
            self.0.push(carry as u64);
        }
        self.trim();
    }

    fn div_small_exact(&mut self, d: u64) {
        let mut rem: u128 = 0;
        for limb in self.0.iter_mut().rev() {
            let t = (rem << 64) | u128::from(*limb);
            *limb = (t / u128::from(d)) as u64;
            rem = t % u128::from(d);
        }
        debug_assert_eq!(rem, 0, "binomial division must be exact");
        self.trim();
    }

    fn add(&mut self, other: &Big) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        let mut carry = 0u64;
        for (i, limb) in self.0.iter_mut().enumerate() {
            let o = other.0.get(i).copied().unwrap_or(0);
            let (s1, c1) = limb.overflowing_add(o);
            let (s2, c2) = s1.overflowing_add(carry);
            *limb = s2;
            carry = u64::from(c1) + u64::from(c2);
        }
        if carry > 0 {
            self.0.push(carry);
        }
    }

    /// Number of significant bits (0 for zero).
    fn bits(&self) -> u64 {
        match self.0.last() {
            None => 0,
            Some(&top) => (self.0.len() as u64 - 1) * 64 + (64 - u64::from(top.leading_zeros())),
        }
    }

    /// self · 2^exp rounded once to the nearest double.
    fn to_f64_scaled(&self, exp: i64) -> f64 {
        let bits = self.bits();
        if bits == 0 {
            return 0.0;
        }
        if bits <= 64 {
            return ldexp(self.0[0] as f64, exp);
        }
        // Top 64 bits, with every lower bit folded into a sticky bit so the
        // u64 → f64 conversion rounds as the exact value would.
        let shift = bits - 64;
        let (limb, off) = ((shift / 64) as usize, (shift % 64) as u32);
        let mut top = self.0[limb] >> off;
        if off > 0 && limb + 1 < self.0.len() {
            top |= self.0[limb + 1] << (64 - off);
        }
        let low_mask = if off == 0 { 0 } else { (1u64 << off) - 1 };
        let sticky = (self.0[limb] & low_mask) != 0 || self.0[..limb].iter().any(|&l| l != 0);
        if sticky {
            top |= 1;
        }
        ldexp(top as f64, exp + shift as i64)
    }
}

/// x · 2^e by exact power-of-two steps (exact unless the result is
/// subnormal or out of range).
fn ldexp(mut x: f64, mut e: i64) -> f64 {
    let step = |k: i64| f64::from_bits(((k + 1023) as u64) << 52);
    while e > 1000 {
        x *= step(1000);
        e -= 1000;
    }
    while e < -1000 {
        x *= step(-1000);
        e += 1000;
    }
    x * step(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_reference_outputs() {
        // Outputs of Vigna's splitmix64.c with x = 0 (checked independently
        // with Python's arbitrary-precision integers).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
        let mut r = SplitMix64::new(1234567);
        assert_eq!(r.next_u64(), 6457827717110365317);
        assert_eq!(r.next_u64(), 3203168211198807973);
    }

    #[test]
    fn below_is_the_high_half_of_the_product() {
        // For n = 2 the draw is the top bit of each output:
        // 0xE2… → 1, 0x6E… → 0, 0x06… → 0.
        let mut r = SplitMix64::new(0);
        assert_eq!([r.below(2), r.below(2), r.below(2)], [1, 0, 0]);
        // n = 1 always draws 0; large n stays in range.
        let mut r = SplitMix64::new(7);
        assert!((0..1000).all(|_| r.below(1) == 0));
        assert!((0..1000).all(|_| r.below(3) < 3));
        assert!((0..1000).all(|_| r.below(u64::MAX) < u64::MAX));
    }

    #[test]
    fn type7_percentiles_by_hand() {
        let x = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(percentile_type7(&x, 0.0), Some(1.0));
        assert_eq!(percentile_type7(&x, 0.25), Some(1.75));
        assert_eq!(percentile_type7(&x, 0.5), Some(2.5));
        assert_eq!(percentile_type7(&x, 1.0), Some(4.0));
        // h = 0.975 between 10 and 20.
        assert_eq!(percentile_type7(&[10.0, 20.0], 0.975), Some(19.75));
        // Ties: h = 1.5 lies between two equal values.
        assert_eq!(percentile_type7(&[1.0, 1.0, 1.0, 5.0], 0.5), Some(1.0));
        // h = 2.7: 1 + 0.7·4.
        let q = percentile_type7(&[1.0, 1.0, 1.0, 5.0], 0.9).unwrap();
        assert!((q - 3.8).abs() < 1e-12);
        assert_eq!(percentile_type7(&[7.0], 0.3), Some(7.0));
        assert_eq!(percentile_type7(&[], 0.5), None);
    }

    #[test]
    fn type7_on_a_longer_vector() {
        // h = 9·0.025 = 0.225 → 1.225; h = 9·0.975 = 8.775 → 9.775 (as R's
        // quantile(1:10, c(.025, .975), type = 7) and NumPy's percentile).
        let x: Vec<f64> = (1..=10).map(f64::from).collect();
        assert!((percentile_type7(&x, 0.025).unwrap() - 1.225).abs() < 1e-12);
        assert!((percentile_type7(&x, 0.975).unwrap() - 9.775).abs() < 1e-12);
    }

    #[test]
    fn bootstrap_draws_are_reproducible_by_hand() {
        // Values [0, 1], seed 0: draws are the top bits of the outputs
        // 0xE2…, 0x6E…, 0x06…, 0xF8… → 1, 0, 0, 1: resample means 0.5 and 0.5.
        assert_eq!(bootstrap_means(&[0.0, 1.0], 2, 0), vec![0.5, 0.5]);
    }

    #[test]
    fn bootstrap_interval_is_reproducible_from_its_seed() {
        let d = [1.0, 0.0, 1.0, 1.0, 0.0, -1.0, 1.0, 0.5, 0.0, 1.0, 1.0, 0.0];
        let a = bootstrap_ci(&d, RESAMPLES, 42, 0.95).unwrap();
        let b = bootstrap_ci(&d, RESAMPLES, 42, 0.95).unwrap();
        assert_eq!(a.0.to_bits(), b.0.to_bits());
        assert_eq!(a.1.to_bits(), b.1.to_bits());
        let m = mean(&d).unwrap();
        assert!(a.0 < m && m < a.1, "{a:?} around {m}");
        // Resample means are multiples of 1/24 within [-1, 1].
        let c = bootstrap_ci(&d, RESAMPLES, 43, 0.95).unwrap();
        assert!(c.0 >= -1.0 && c.1 <= 1.0);
    }

    #[test]
    fn bootstrap_of_constant_differences_is_a_point() {
        assert_eq!(
            bootstrap_ci(&[0.0; 12], RESAMPLES, 0, 0.95),
            Some((0.0, 0.0))
        );
        assert_eq!(bootstrap_ci(&[0.5; 3], 100, 9, 0.95), Some((0.5, 0.5)));
        assert_eq!(bootstrap_ci(&[], 100, 9, 0.95), None);
    }

    #[test]
    fn fractions_share_the_least_common_denominator() {
        let f = Fractions::new(&[(1, 3), (-1, 6), (2, 4)]).unwrap();
        assert_eq!(
            f,
            Fractions {
                nums: vec![4, -2, 6],
                den: 12
            }
        );
        // (1/3 − 1/6 + 1/2) / 3 = 2/9
        assert_eq!(f.mean(), Some(2.0 / 9.0));
        assert_eq!(Fractions::new(&[]).unwrap().mean(), None);
        // 3/10 is rounded once: exactly the double nearest 0.3.
        let tenths = Fractions::new(&[
            (1, 1),
            (0, 1),
            (0, 1),
            (1, 1),
            (1, 1),
            (0, 1),
            (0, 1),
            (0, 1),
            (0, 1),
            (0, 1),
        ])
        .unwrap();
        assert_eq!(tenths.mean(), Some(0.3));
        // The product of the primes to 53 overflows 64 bits.
        let primes = [
            2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53,
        ];
        let parts: Vec<(i64, u64)> = primes.iter().map(|&p| (1, p)).collect();
        assert_eq!(Fractions::new(&parts), None);
        assert_eq!(Fractions::new(&[(1, 0)]), None);
    }

    #[test]
    fn exact_type7_by_hand() {
        // [1, 2, 3, 4] at 1/4: h = 3/4 → 1 + 3/4 = 7/4.
        assert_eq!(percentile_type7_exact(&[1, 2, 3, 4], 1, 4), Some(7));
        // n = 10000 at 1/40: h = 9999/40 = 249 + 39/40.
        let x: Vec<i128> = (0..10_000).map(|i| i * 2).collect();
        // x[249] = 498, x[250] = 500: (498·40 + 39·2) / 40 = 499.95.
        assert_eq!(percentile_type7_exact(&x, 1, 40), Some(498 * 40 + 78));
        // at 39/40: h = 389961/40 = 9749 + 1/40 → (19498·40 + 2) / 40.
        assert_eq!(percentile_type7_exact(&x, 39, 40), Some(19498 * 40 + 2));
        // Ties and the ends.
        assert_eq!(percentile_type7_exact(&[5, 5, 5], 1, 2), Some(10));
        assert_eq!(percentile_type7_exact(&[1, 9], 1, 1), Some(9));
        assert_eq!(percentile_type7_exact(&[], 1, 2), None);
    }

    #[test]
    fn exact_and_float_bootstraps_draw_the_same_resamples() {
        let nums = [3i64, 0, 3, -3, 1, 2, 0, 3, 3, -1, 0, 2];
        let f = Fractions {
            nums: nums.to_vec(),
            den: 3,
        };
        let sums = bootstrap_sums(&nums, 500, 11);
        let means = bootstrap_means(&nums.map(|n| n as f64 / 3.0), 500, 11);
        for (s, m) in sums.iter().zip(&means) {
            assert!((*s as f64 / 36.0 - m).abs() < 1e-12);
        }
        let (lo, hi) = bootstrap_ci_exact(&f, 500, 11).unwrap();
        let (flo, fhi) = bootstrap_ci(&nums.map(|n| n as f64 / 3.0), 500, 11, 0.95).unwrap();
        assert!((lo - flo).abs() < 1e-12 && (hi - fhi).abs() < 1e-12);
        assert_ne!(
            bootstrap_sums(&nums, 500, 11),
            bootstrap_sums(&nums, 500, 12)
        );
    }

    #[test]
    fn exact_interval_of_tenths_has_no_rounding_noise() {
        // Ten cases, d in {0, 1/3, 1}: every resample mean is k/30.
        let f = Fractions::new(&[
            (1, 1),
            (1, 1),
            (1, 1),
            (1, 3),
            (1, 1),
            (0, 1),
            (1, 3),
            (1, 1),
            (0, 1),
            (1, 3),
        ])
        .unwrap();
        let (lo, hi) = bootstrap_ci_exact(&f, RESAMPLES, 0).unwrap();
        let k_lo = lo * 30.0;
        let k_hi = hi * 30.0;
        assert!(lo < hi);
        // With ties at the order statistics the bounds are exactly k/30.
        assert_eq!(lo, (k_lo.round()) / 30.0, "{lo}");
        assert_eq!(hi, (k_hi.round()) / 30.0, "{hi}");
    }

    #[test]
    fn sign_test_by_hand() {
        // n = 0: no evidence either way.
        assert_eq!(sign_test_p(0, 0), 1.0);
        // n = 1: 2·1/2 = 1.
        assert_eq!(sign_test_p(1, 0), 1.0);
        // 7 of 7 positive: 2/128.
        assert_eq!(sign_test_p(7, 0), 0.015625);
        assert_eq!(sign_test_p(0, 7), 0.015625);
        // n = 10: k = 0 → 2/1024, k = 1 → 2·11/1024, k = 2 → 2·56/1024.
        assert_eq!(sign_test_p(10, 0), 0.001953125);
        assert_eq!(sign_test_p(9, 1), 0.021484375);
        assert_eq!(sign_test_p(2, 8), 0.109375);
        // A tie is p = 1 (clamped from 2·638/1024).
        assert_eq!(sign_test_p(5, 5), 1.0);
        // k = 4 of 10: 2·386/1024 = 0.75390625.
        assert_eq!(sign_test_p(6, 4), 0.75390625);
    }

    #[test]
    fn sign_test_is_exact_for_large_n() {
        // 2/2^200 = 2^-199, 2/2^1000 = 2^-999 exactly.
        assert_eq!(sign_test_p(200, 0), ldexp(1.0, -199));
        assert_eq!(sign_test_p(0, 1000), ldexp(1.0, -999));
        // Subnormal but exact: 2^-1073; beyond 2^-1074 it underflows to 0.
        assert_eq!(sign_test_p(1074, 0), ldexp(1.0, -1073));
        assert_eq!(sign_test_p(3000, 0), 0.0);
        // n = 200, k = 99: 1 − C(200,100)/2^200, computed with Python's
        // fractions.Fraction and rounded once.
        assert_eq!(sign_test_p(101, 99), 0.9436515209907436);
        // n = 200, k = 100 is a tie: p = 1.
        assert_eq!(sign_test_p(100, 100), 1.0);
        // n = 300, k = 120: Fraction(2·Σ C(300,i), 2^300) rounded once.
        assert_eq!(sign_test_p(180, 120), 0.0006342200069283569);
    }

    #[test]
    fn big_integer_steps_are_exact() {
        let mut b = Big::from(u64::MAX);
        b.mul_small(u64::MAX);
        assert_eq!(b.0, vec![1, u64::MAX - 1]);
        b.div_small_exact(u64::MAX);
        assert_eq!(b.0, vec![u64::MAX]);
        b.add(&Big::from(1));
        assert_eq!(b.0, vec![0, 1]);
        assert_eq!(b.bits(), 65);
        assert_eq!(b.to_f64_scaled(-64), 1.0);
    }
}
