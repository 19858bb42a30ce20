//! Typed read queries for `show`, `list`, `stats` and `export`.
