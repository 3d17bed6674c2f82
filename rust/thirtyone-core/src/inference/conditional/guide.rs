//! A hand drawn from the whole posterior by its cumulative counts, found through a guide table:
//! the uniform number's top bits name a bucket, the bucket the few hands the number can fall on,
//! and a search over those alone finds it (the same hand a search of the whole list finds, in
//! a step or two instead of one a level of a binary search: about fifteen dependent reads
//! scattered over the list, most of them cache misses at the rejection sampler's rate).

/// The cumulative counts and, by bucket of numbers below the total, the first hand each bucket's
/// numbers can fall on.
#[derive(Clone, Debug)]
pub(super) struct Guide {
    cumulative: Vec<u64>,
    /// For bucket `b` (the numbers `r` with `r >> shift == b`), the first hand whose cumulative
    /// count is above `b << shift`; one more entry past the last bucket (every hand).
    first: Vec<u32>,
    shift: u32,
}

impl Guide {
    /// The guide of `cumulative` (non-decreasing; its last entry the total): about one bucket a
    /// hand.
    pub(super) fn new(cumulative: Vec<u64>) -> Guide {
        let n = cumulative.len().max(1) as u64;
        let total = cumulative.last().copied().unwrap_or(0);
        let shift = (0..64).find(|&s| (total >> s) < n).unwrap_or(63);
        let buckets = (total >> shift) + 1;
        let mut first = Vec::with_capacity(buckets as usize + 1);
        let mut i = 0usize;
        for b in 0..=buckets {
            let least = b << shift;
            while i < cumulative.len() && cumulative[i] <= least {
                i += 1;
            }
            first.push(i as u32);
        }
        Guide {
            cumulative,
            first,
            shift,
        }
    }

    /// The first hand whose cumulative count is above `r` (below the total): what
    /// `cumulative.partition_point(|&c| c <= r)` gives.
    #[inline]
    pub(super) fn find(&self, r: u64) -> usize {
        let b = (r >> self.shift) as usize;
        let (lo, hi) = (self.first[b] as usize, self.first[b + 1] as usize);
        // `r` is below the next bucket's least number: its hand is at most `hi` (and below the
        // list's end, as `r` is below the total).
        let end = (hi + 1).min(self.cumulative.len());
        lo + self.cumulative[lo..end].partition_point(|&c| c <= r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every number below the total finds the hand a search of the whole list finds, over lists
    /// of even, skewed, and zero counts, and totals from 1 to far above the hands.
    #[test]
    fn the_guide_finds_what_the_whole_search_finds() {
        let lists: Vec<Vec<u64>> = vec![
            vec![1],
            vec![5],
            vec![0, 0, 3],
            vec![1, 1, 1, 1],
            vec![1, 1_000_000, 1, 1, 0, 7],
            (0..300)
                .map(|k| if k % 7 == 0 { 100_000 } else { k % 3 })
                .collect(),
            (0..64).map(|k| 1u64 << (k % 40)).collect(),
        ];
        for counts in lists {
            let cumulative: Vec<u64> = counts
                .iter()
                .scan(0u64, |run, &c| {
                    *run += c;
                    Some(*run)
                })
                .collect();
            let total = *cumulative.last().unwrap();
            let guide = Guide::new(cumulative.clone());
            // Every number where the total is small; else every hand's edges and a spread.
            let numbers: Vec<u64> = if total <= 5_000 {
                (0..total).collect()
            } else {
                let edges = cumulative.iter().flat_map(|&c| [c.saturating_sub(1), c]);
                edges
                    .chain((0..5_000).map(|k| k * (total / 5_000)))
                    .filter(|&r| r < total)
                    .collect()
            };
            for r in numbers {
                let want = cumulative.partition_point(|&c| c <= r);
                assert_eq!(guide.find(r), want, "{counts:?}, r = {r}");
            }
        }
    }
}
