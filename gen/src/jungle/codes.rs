//! One metric's value codes of a table, a byte an entry: the rare codes past a byte (wins and
//! losses longer than [`Codes::NARROW_PLIES`] plies) are kept apart, sorted by entry.
//!
//! A 5-piece table has up to 5e8 entries: two `u16` codes an entry took 2 GB of a generation's
//! 3.1 GiB peak. Almost every distance fits a byte (the longest win up to four pieces is 93
//! plies); the few past it cost 8 bytes each.

use rayon::prelude::*;

use crate::core::memory::filled;

/// The byte of an entry whose code is kept apart.
const WIDE: u8 = u8::MAX;

/// Value codes ([`jtb_probe::Value::code`]) of one metric, one per entry of a table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Codes {
    /// Per entry, its code, or [`WIDE`] where the code does not fit below it.
    bytes: Vec<u8>,
    /// `entry << 16 | code` of each entry whose byte is [`WIDE`], in entry order.
    wide: Vec<u64>,
}

impl Codes {
    /// The longest distance (a win or a loss, in plies) whose codes take one byte: `2d + 2`
    /// stays below the escape byte.
    pub const NARROW_PLIES: u16 = (WIDE as u16 - 3) / 2;

    /// Bytes a code past a byte costs (beside its entry's byte).
    pub const WIDE_BYTES: u64 = std::mem::size_of::<u64>() as u64;

    /// `len` entries, each holding `code`, written in parallel.
    ///
    /// # Panics
    /// If `code` does not fit a byte.
    pub(crate) fn filled(len: usize, code: u16) -> Codes {
        let byte = Codes::narrow(code).expect("a code that fits a byte");
        Codes {
            bytes: filled(len, byte),
            wide: Vec::new(),
        }
    }

    /// The byte of `code`, if it fits one.
    #[inline]
    fn narrow(code: u16) -> Option<u8> {
        u8::try_from(code).ok().filter(|&b| b != WIDE)
    }

    /// Number of entries.
    #[must_use]
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether there are no entries.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The code of entry `idx`.
    ///
    /// # Panics
    /// If `idx` is out of range.
    #[must_use]
    #[inline]
    pub fn get(&self, idx: usize) -> u16 {
        match self.bytes[idx] {
            WIDE => self.wide_code(idx),
            b => u16::from(b),
        }
    }

    /// The byte of entry `idx`: its code, or `None` where the code is past a byte
    /// ([`Codes::get`] gives it).
    ///
    /// # Panics
    /// If `idx` is out of range.
    #[must_use]
    #[inline]
    pub fn byte(&self, idx: usize) -> Option<u8> {
        let b = self.bytes[idx];
        (b != WIDE).then_some(b)
    }

    #[cold]
    fn wide_code(&self, idx: usize) -> u16 {
        let at = self.wide.partition_point(|&w| (w >> 16) < idx as u64);
        let w = self.wide[at];
        debug_assert_eq!(w >> 16, idx as u64);
        w as u16
    }

    /// Whether some code is past a byte.
    #[must_use]
    pub fn has_wide(&self) -> bool {
        !self.wide.is_empty()
    }

    /// Number of entries whose code is past a byte.
    #[must_use]
    pub fn wide_count(&self) -> usize {
        self.wide.len()
    }

    /// The codes of entries `range`.
    pub fn iter_range(
        &self,
        range: std::ops::Range<usize>,
    ) -> impl Iterator<Item = u16> + Clone + '_ {
        let start = range.start;
        self.bytes[range]
            .iter()
            .enumerate()
            .map(move |(i, &b)| match b {
                WIDE => self.wide_code(start + i),
                b => u16::from(b),
            })
    }

    /// The code of the last entry before `idx` whose code is not `skip`, if any.
    #[must_use]
    pub fn last_before(&self, idx: usize, skip: u16) -> Option<u16> {
        let at = self.bytes[..idx]
            .iter()
            .rposition(|&b| u16::from(b) != skip || b == WIDE)?;
        Some(self.get(at))
    }

    /// Sets the entries of `chunk` (a run of entries starting at `start`, from
    /// [`Codes::chunks_mut`]) at the offsets `at` to `code`; a code past a byte also goes to
    /// `wide` (entry order within the chunk), for [`Codes::add_wide`].
    #[inline]
    pub(crate) fn set_in(
        chunk: &mut [u8],
        start: usize,
        at: impl Iterator<Item = usize>,
        code: u16,
        wide: &mut Vec<u64>,
    ) {
        match Codes::narrow(code) {
            Some(b) => at.for_each(|i| chunk[i] = b),
            None => at.for_each(|i| {
                chunk[i] = WIDE;
                wide.push(((start + i) as u64) << 16 | u64::from(code));
            }),
        }
    }

    /// The bytes, to be written through [`Codes::set_in`] (disjoint runs in parallel).
    pub(crate) fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.bytes
    }

    /// Takes in codes past a byte that [`Codes::set_in`] listed, in any order, each entry once.
    pub(crate) fn add_wide(&mut self, mut wide: Vec<u64>) {
        if wide.is_empty() {
            return;
        }
        if self.wide.is_empty() {
            // Taken, not copied: a table's codes past a byte can take a hundred megabytes.
            self.wide = wide;
        } else {
            self.wide.append(&mut wide);
        }
        self.wide.par_sort_unstable();
    }

    /// Codes filled in parallel runs of `run` entries: `fill(r, out)` pushes the codes of
    /// run `r` (entries `r * run` on), in order, into `out`, and may fail.
    ///
    /// # Errors
    /// The first error of `fill`.
    ///
    /// # Panics
    /// If `fill` pushes other than one code for each entry of its run.
    pub fn try_from_runs<E: Send>(
        len: usize,
        run: usize,
        fill: impl Fn(usize, &mut RunWriter<'_>) -> Result<(), E> + Sync,
    ) -> Result<Codes, E> {
        let run = run.max(1);
        let mut bytes = vec![0u8; len];
        let wide: Vec<Vec<u64>> = bytes
            .par_chunks_mut(run)
            .enumerate()
            .map(|(r, chunk)| {
                let mut out = RunWriter {
                    start: r * run,
                    chunk,
                    at: 0,
                    wide: Vec::new(),
                };
                fill(r, &mut out)?;
                assert_eq!(out.at, out.chunk.len(), "a code for every entry of the run");
                Ok(out.wide)
            })
            .collect::<Result<_, E>>()?;
        Ok(Codes {
            bytes,
            wide: wide.concat(),
        })
    }

    /// The bytes of memory the codes take.
    #[must_use]
    pub fn heap_bytes(&self) -> u64 {
        self.bytes.len() as u64 + self.wide.len() as u64 * Codes::WIDE_BYTES
    }
}

/// Where [`Codes::try_from_runs`] takes one run's codes.
pub struct RunWriter<'a> {
    start: usize,
    chunk: &'a mut [u8],
    at: usize,
    wide: Vec<u64>,
}

impl RunWriter<'_> {
    /// The code of the run's next entry.
    ///
    /// # Panics
    /// Past the run's end.
    #[inline]
    pub fn push(&mut self, code: u16) {
        self.chunk[self.at] = Codes::narrow(code).unwrap_or_else(|| {
            self.wide
                .push(((self.start + self.at) as u64) << 16 | u64::from(code));
            WIDE
        });
        self.at += 1;
    }
}

impl From<&[u16]> for Codes {
    fn from(codes: &[u16]) -> Codes {
        let mut bytes = Vec::with_capacity(codes.len());
        let mut wide = Vec::new();
        for (i, &c) in codes.iter().enumerate() {
            bytes.push(Codes::narrow(c).unwrap_or_else(|| {
                wide.push((i as u64) << 16 | u64::from(c));
                WIDE
            }));
        }
        Codes { bytes, wide }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jtb_probe::Value;

    #[test]
    fn every_code_round_trips_and_long_distances_go_apart() {
        let values: Vec<u16> = (0..600u16)
            .flat_map(|d| [Value::Win(d + 1), Value::Loss(d), Value::Draw])
            .map(Value::code)
            .chain([1, 0, u16::MAX - 1])
            .collect();
        let codes = Codes::from(&values[..]);
        assert_eq!(codes.len(), values.len());
        assert!(codes.iter_range(0..values.len()).eq(values.iter().copied()));
        for (i, &c) in values.iter().enumerate() {
            assert_eq!(codes.get(i), c);
            assert_eq!(codes.byte(i).is_some(), c < u16::from(WIDE));
        }
        let long = values.iter().filter(|&&c| c >= u16::from(WIDE)).count();
        assert_eq!(codes.wide_count(), long);
        // The longest narrow distance takes a byte, one ply more does not.
        let d = Codes::NARROW_PLIES;
        for v in [Value::Win(d), Value::Loss(d)] {
            assert!(Codes::narrow(v.code()).is_some(), "{v}");
        }
        for v in [Value::Win(d + 1), Value::Loss(d + 1)] {
            assert!(Codes::narrow(v.code()).is_none(), "{v}");
        }
        assert_eq!(codes.last_before(3, 0), Some(values[1]));
    }

    #[test]
    fn set_in_and_runs_agree_with_from() {
        let values: Vec<u16> = (0..5000u16).map(|i| (i * 7) % 700).collect();
        let mut codes = Codes::filled(values.len(), 0);
        let mut wide = Vec::new();
        for (start, chunk) in (0..).step_by(64).zip(codes.bytes_mut().chunks_mut(64)) {
            for i in 0..chunk.len() {
                Codes::set_in(chunk, start, [i].into_iter(), values[start + i], &mut wide);
            }
        }
        wide.reverse();
        codes.add_wide(wide);
        assert_eq!(codes, Codes::from(&values[..]));
        let runs = Codes::try_from_runs(values.len(), 100, |r, push| {
            values[r * 100..(r * 100 + 100).min(values.len())]
                .iter()
                .for_each(|&c| push.push(c));
            Ok::<_, ()>(())
        })
        .unwrap();
        assert_eq!(runs, codes);
    }
}
