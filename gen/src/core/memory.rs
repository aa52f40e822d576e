//! Large buffers that are written before they are read.

use rayon::prelude::*;

/// A vector of `n` copies of `value`, written in parallel: each thread maps the pages it
/// writes, and no core idles while one fills the whole buffer.
pub(crate) fn filled<T: Copy + Send + Sync>(n: usize, value: T) -> Vec<T> {
    let mut v = Vec::with_capacity(n);
    v.par_extend(rayon::iter::repeat_n(value, n));
    v
}

/// A vector of `n` zeros whose pages are already written.
///
/// `vec![0; n]` maps untouched pages to the kernel's shared zero page on their first read;
/// the first write after that must replace the mapping, which on a multi-threaded process
/// flushes every core's TLB. The solver reads its zeroed bitmaps and capture bytes before it
/// writes them, and those flushes were an eighth of a generation. Writing the zeros at once
/// maps each page only once.
pub(crate) fn zeroed<T: Copy + Default + Send + Sync>(n: usize) -> Vec<T> {
    filled(n, T::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filled_holds_n_copies() {
        for n in [0, 1, 1000, 1 << 20] {
            let v = filled(n, 7u16);
            assert_eq!(v.len(), n);
            assert!(v.iter().all(|&x| x == 7));
            assert!(zeroed::<u64>(n).iter().all(|&x| x == 0));
        }
    }
}
