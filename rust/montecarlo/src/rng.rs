//! Random streams: xoshiro256++ seeded through SplitMix64, one independent stream per
//! (seed, purpose, task), so that results never depend on the number of threads.

/// A small, fast generator (xoshiro256++).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    s: [u64; 4],
}

#[inline(always)]
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = scalar(*state);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `x` as it is, kept in a general register. A stream's four words are four independent
/// SplitMix64 steps, which the compiler otherwise computes two at a time in vector registers;
/// without a vector multiply of 64-bit words (the baseline x86-64 and AArch64 have none) each
/// multiply then takes about six instructions, and making a playout's stream took about 5% of
/// the playout's time (`4p-middle`). An empty `asm!` block, which does nothing and reads
/// nothing, stops that.
#[inline(always)]
fn scalar(x: u64) -> u64 {
    // (64-bit general registers: 32-bit x86 has none, and no asm! operand of 64 bits.)
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    {
        let mut x = x;
        // SAFETY: the block is empty: it reads and writes no memory and changes no flag; `x`
        // stays as it was.
        unsafe {
            core::arch::asm!("/* {0} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags));
        }
        x
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    x
}

impl Rng {
    /// The stream for `(seed, purpose, task)`: distinct triples give unrelated streams.
    pub fn stream(seed: u64, purpose: u64, task: u64) -> Rng {
        Streams::new(seed, purpose).stream(task)
    }
}

/// The streams of one `(seed, purpose)`, by task: [`Rng::stream`] with its first two steps done
/// once (a run makes one stream per playout).
#[derive(Clone, Copy, Debug)]
pub struct Streams {
    b: u64,
}

impl Streams {
    pub fn new(seed: u64, purpose: u64) -> Streams {
        let mut st = seed;
        let a = splitmix(&mut st);
        let mut st = a ^ purpose.wrapping_mul(0xD1B5_4A32_D192_ED03);
        Streams {
            b: splitmix(&mut st),
        }
    }

    /// The stream of `task`.
    #[inline]
    pub fn stream(self, task: u64) -> Rng {
        let mut st = self.b ^ task.wrapping_mul(0x8CB9_2BA7_2F3D_8DD7);
        let [a, b, c, d] = [(); 4].map(|_| splitmix(&mut st));
        // xoshiro's state may not be all zeros: then its first word is 1 (without a branch).
        let a = a | u64::from((a | b | c | d) == 0);
        Rng { s: [a, b, c, d] }
    }
}

impl Rng {
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `0..n` (`n > 0`), without modulo bias (Lemire's method).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let mut m = (self.next_u64() >> 32) * n as u64;
        let mut low = m as u32;
        if low < n {
            let threshold = n.wrapping_neg() % n;
            while low < threshold {
                m = (self.next_u64() >> 32) * n as u64;
                low = m as u32;
            }
        }
        (m >> 32) as u32
    }

    /// A uniform integer in `0..n` (`n > 0`), for ranges beyond `u32`.
    #[inline]
    pub fn below_u64(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }

    /// A uniform integer in `0..n` (`n > 0`), for sums of products of counts.
    #[inline]
    pub fn below_u128(&mut self, n: u128) -> u128 {
        debug_assert!(n > 0);
        if let Ok(small) = u64::try_from(n) {
            return self.below_u64(small) as u128;
        }
        let zone = u128::MAX - (u128::MAX % n);
        loop {
            let x = ((self.next_u64() as u128) << 64) | self.next_u64() as u128;
            if x < zone {
                return x % n;
            }
        }
    }

    /// Shuffle a slice uniformly (Fisher–Yates).
    #[inline]
    pub fn shuffle<T>(&mut self, xs: &mut [T]) {
        for i in (1..xs.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            xs.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a: Vec<u64> = (0..4).map(|_| Rng::stream(7, 1, 2).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(
            Rng::stream(7, 1, 2).next_u64(),
            Rng::stream(7, 1, 3).next_u64()
        );
        assert_ne!(
            Rng::stream(7, 1, 2).next_u64(),
            Rng::stream(7, 2, 2).next_u64()
        );
        assert_ne!(
            Rng::stream(7, 1, 2).next_u64(),
            Rng::stream(8, 1, 2).next_u64()
        );
    }

    #[test]
    fn below_is_uniform() {
        let mut r = Rng::stream(1, 0, 0);
        let mut counts = [0u32; 6];
        let n = 60_000;
        for _ in 0..n {
            counts[r.below(6) as usize] += 1;
        }
        // chi-square with 5 degrees of freedom; 20.5 is the 0.999 quantile.
        let e = n as f64 / 6.0;
        let chi: f64 = counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum();
        assert!(chi < 20.5, "chi-square {chi}");
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut r = Rng::stream(3, 0, 0);
        let mut xs: Vec<u8> = (0..52).collect();
        r.shuffle(&mut xs);
        let mut sorted = xs.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..52).collect::<Vec<u8>>());
        assert_ne!(xs, sorted);
    }
}
