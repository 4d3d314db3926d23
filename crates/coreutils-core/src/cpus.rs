//! How many processors the system has, for `nproc` and `getconf`.
//!
//! WASI has no such call (std's `available_parallelism` is unsupported
//! there), but the kernel's `/proc/cpuinfo` lists the host processors the
//! sandbox's processes run on, one `processor` line each, as Linux does.

/// Counts `processor` lines in a `/proc/cpuinfo` text.
pub fn count_cpuinfo(text: &str) -> usize {
    text.lines()
        .filter(|l| {
            l.split(':')
                .next()
                .map_or(false, |k| k.trim_end() == "processor")
        })
        .count()
}

/// Number of online processors (at least 1).
pub fn online() -> usize {
    if let Ok(n) = std::thread::available_parallelism() {
        return n.get();
    }
    crate::fs::read_to_string("/proc/cpuinfo")
        .map(|t| count_cpuinfo(&t))
        .unwrap_or(0)
        .max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_processor_lines_only() {
        let t = "processor\t: 0\nmodel name\t: x\n\nprocessor\t: 1\nmodel name\t: processor y\n";
        assert_eq!(count_cpuinfo(t), 2);
        assert_eq!(count_cpuinfo(""), 0);
    }

    #[test]
    fn online_is_positive() {
        assert!(online() >= 1);
    }
}
