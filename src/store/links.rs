//! Reading link inputs and writing threads, regressions and timelines.
