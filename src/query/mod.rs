//! Resolves user queries (subsystem, commit, metric, Message-ID, regression id)
//! into regression histories read from the store.
