//! Forward-only schema migrations tracked in `PRAGMA user_version`.

use rusqlite::Connection;

use super::DbContext;
use crate::error::{Error, Result};

/// The migrations, in order; migration `i` brings the schema to version `i + 1`.
pub const MIGRATIONS: &[&str] = &[
    include_str!("sql/0001_init.sql"),
    include_str!("sql/0002_link.sql"),
    include_str!("sql/0003_link_state.sql"),
    include_str!("sql/0004_bulk_bodies.sql"),
    include_str!("sql/0005_bodies_apart.sql"),
    include_str!("sql/0006_body_blocks.sql"),
    include_str!("sql/0007_extraction_version.sql"),
    include_str!("sql/0008_patches_landings.sql"),
    include_str!("sql/0009_follow.sql"),
    include_str!("sql/0010_link_keys.sql"),
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Brings `conn` up to [`SCHEMA_VERSION`]; refuses a newer database.
pub fn migrate(conn: &mut Connection, path: &str) -> Result<()> {
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .db("PRAGMA user_version")?;
    if version > SCHEMA_VERSION {
        return Err(Error::SchemaTooNew {
            path: path.to_string(),
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let tx = conn.transaction().db("begin migration")?;
        tx.execute_batch(sql).db(&format!("migration {}", i + 1))?;
        tx.pragma_update(None, "user_version", (i + 1) as i64)
            .db("set user_version")?;
        tx.commit().db("commit migration")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_apply_in_order_and_set_the_version() {
        let mut conn = Connection::open_in_memory().unwrap();
        migrate(&mut conn, ":memory:").unwrap();
        let v: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(v, SCHEMA_VERSION);
        migrate(&mut conn, ":memory:").unwrap();
    }

    #[test]
    fn a_newer_database_is_refused() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
        let err = migrate(&mut conn, "x.db").unwrap_err();
        assert!(
            err.to_string()
                .contains("newer than this regtrack supports"),
            "{err}"
        );
    }
}
