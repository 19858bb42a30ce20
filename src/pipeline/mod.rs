//! The pipeline: what runs the layers together. [`update`] runs the stages
//! of an ingest in their order (store, re-extract, trees, relink); [`ingest`] streams sources
//! through mail parsing and extraction into the store; [`relink`] feeds the
//! stored rows to the pure linker and writes the histories back;
//! [`reindex`] re-extracts messages stored by an older extractor; [`trees`]
//! reads the followed kernel trees into the store; [`epoch_bodies`] reads
//! the bodies the store leaves in public-inbox epochs. Threads,
//! progress and the order of the stages live here, never in the layers.

pub mod epoch_bodies;
pub mod ingest;
pub mod reindex;
pub mod relink;
pub mod trees;
pub mod update;
