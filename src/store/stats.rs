//! Read queries behind `regtrack stats`.
