//! Large buffers that are written before they are read.

/// A vector of `n` zeros whose pages are already written.
///
/// `vec![0; n]` maps untouched pages to the kernel's shared zero page on their first read;
/// the first write after that must replace the mapping, which on a multi-threaded process
/// flushes every core's TLB. The solver reads its zeroed bitmaps and capture bytes before it
/// writes them, and those flushes were an eighth of a generation. Writing the zeros at once
/// maps each page only once.
pub(crate) fn zeroed<T: Copy + Default>(n: usize) -> Vec<T> {
    let mut v = Vec::with_capacity(n);
    v.resize(n, T::default());
    v
}
