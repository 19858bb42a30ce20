//! The ingest pipeline: sources -> parse (in parallel) -> extract -> store (one
//! writer thread, large transactions), with counts, failures and progress.
//!
//! ```text
//! reader thread ──batches of RawMessage──▶ parse thread (rayon: mail::parse,
//!   (source::open, public-inbox walk)       settle: known ids, LZ4 and zstd
//!                                           blocks; extract::extract, JSON)
//!                                                   ──▶ writer
//!                                                   (this thread, whole
//!                                               batches per transaction)
//! ```
//! Channels are bounded (a few batches of at most [`BATCH_BYTES`]), and the
//! parse stage holds two batches besides the one it parses (pipelined over
//! consecutive batches), so memory does not grow with the archive. A
//! batch's raw bytes go once it is parsed and settled (`settle`): the
//! stored bodies and header blocks are compressed from them then, and only
//! the decoded bodies stay, for the extraction. A
//! transaction holds whole batches, up to [`COMMIT_BYTES`] of mail,
//! [`COMMIT_MESSAGES`] or [`COMMIT_INTERVAL`]: killing the process leaves
//! whole batches, and a re-run skips what is stored (Message-ID is the key)
//! and finishes the rest. Public-inbox progress (last commit per epoch) is
//! written in the same transaction as its messages.
//! A checkpointer thread copies the WAL into the database meanwhile, so the
//! writer seldom stops for it. An ingest into an empty database defers its
//! randomly keyed indexes and builds them once the messages are written, on a
//! second connection while linking reads ([`IndexBuild`], [`crate::store::bulk`]).

use std::collections::{HashMap, VecDeque};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::source::{Item, Items, Opener};
use crate::store::messages::packing;
use crate::store::messages::{Outcome, Record, insert_record};
use crate::store::session::{Checkpointer, IngestSession, Lookup};
use crate::store::sources::{self, FailureAt};
use crate::store::{Store, bulk};

/// Largest batch handed from the reader to the parsers (bytes of raw mail).
/// About five batches are in flight (being read, waiting, parsed,
/// extracted, made into records, waiting for and in the writer), so this
/// sets much of an ingest's memory: on linux-ext4 2 MB batches take about
/// 15 MiB less at their peak than 4 MB ones, at a speed not told apart in
/// alternating runs (`benches/README.md`, "Memory bounds").
pub const BATCH_BYTES: usize = 2 << 20;
/// Largest batch in messages.
pub const BATCH_MESSAGES: usize = 4096;
/// Size of the first batch: batches double from it up to [`BATCH_BYTES`] and
/// [`BATCH_MESSAGES`], so the parsers start on the first few hundred messages
/// instead of waiting for the reader to fill a whole batch (while the reader's
/// buffers are new, its pages are faulted in as it goes, and both parsers
/// would be idle meanwhile).
pub const FIRST_BATCH_BYTES: usize = 256 << 10;
/// Largest write transaction, in bytes of mail.
pub const COMMIT_BYTES: u64 = 32 << 20;
/// Largest write transaction, in messages (readers see a small archive's
/// progress too).
pub const COMMIT_MESSAGES: u64 = 2 * BATCH_MESSAGES as u64;
/// Longest write transaction.
pub const COMMIT_INTERVAL: std::time::Duration = std::time::Duration::from_secs(1);
/// Interval of the background WAL checkpoints during an ingest.
pub const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(250);
/// How many failures the summary keeps for display (all are stored).
pub const MAX_FAILURE_NOTES: usize = 200;

/// What one ingest did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Messages stored for the first time.
    pub new: u64,
    /// Messages already stored (same content, or another list's copy).
    pub known: u64,
    /// Different copies of a known Message-ID (kept; see
    /// [`crate::mail::copies`]).
    pub duplicates: u64,
    /// Of which chosen over the stored copy, which they replaced.
    pub replaced: u64,
    /// Messages that could not be parsed, and had not failed before.
    pub failed: u64,
    /// Messages that failed in an earlier run too, read again and failing
    /// still (not in `failed`; `regtrack failures` lists them): a cron job
    /// is told of a failure once.
    pub failed_again: u64,
    /// Of `failed` and `failed_again`, the commits of public-inbox epochs
    /// whose message could not be read or parsed (a blob missing from a
    /// mirror among them): kept in `failures` and read again on every run.
    pub failed_commits: u64,
    /// Input files skipped because they are unchanged (same size and
    /// modification time) since an ingest read them to the end.
    pub unchanged: u64,
    /// Bytes of mail read.
    pub bytes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Of which reading, parsing and writing the messages.
    pub write_seconds: f64,
    /// Of which building the indexes a bulk load deferred (0 when none was).
    pub index_seconds: f64,
    /// The first failures, for display.
    #[serde(skip)]
    pub failures: Vec<FailureNote>,
    /// Inputs that could not be opened or read at all.
    #[serde(skip)]
    pub input_errors: Vec<FailureNote>,
    /// A followed kernel tree could not be synced after the mail (said on
    /// stderr; the mail was stored and linked).
    #[serde(skip)]
    pub trees_failed: bool,
}

impl Summary {
    /// Messages seen (new, known, duplicate or failed).
    pub fn messages(&self) -> u64 {
        self.new + self.known + self.duplicates + self.failed + self.failed_again
    }
}

/// One failure: where, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FailureNote {
    /// `path:offset`, `repo@commit` or the input path.
    pub place: String,
    /// Why it failed.
    pub reason: String,
}

/// An item after the parallel stage.
enum Done {
    Record(Box<Record>),
    Failed {
        at: FailureAt,
        place: String,
        message_id: Option<String>,
        reason: String,
        bytes: u64,
    },
    InputError(FailureNote),
    Mark {
        source: String,
        kind: String,
        last_commit: String,
    },
    FileRead {
        source: String,
        size: i64,
        mtime: i64,
    },
    Unchanged,
    Planned(u64),
}

/// How far an ingest is, told after each written batch.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    /// Bytes of mail read so far.
    pub bytes: u64,
    /// Messages read so far (stored, known, duplicates and failed).
    pub messages: u64,
    /// Messages the inputs said they hold before reading them (the new
    /// commits of the public-inbox epochs opened so far); 0 when none did.
    pub planned_messages: u64,
}

/// Callback after each written batch.
pub type ProgressFn<'a> = &'a (dyn Fn(&Progress) + Sync);

/// Ingests `inputs` into `store`. Per-message and per-input failures are
/// counted and reported in the summary; only database errors end the run.
/// Returns once every index is built.
pub fn ingest(store: &mut Store, inputs: &[PathBuf], progress: ProgressFn<'_>) -> Result<Summary> {
    let (mut summary, mut build) = ingest_indexing_behind(store, inputs, progress)?;
    build.wait()?;
    build.account(&mut summary);
    Ok(summary)
}

/// Indexes a bulk load deferred, built on a thread and connection of their
/// own once the messages are written: linking reads meanwhile (it needs none
/// of them) and writes once they are built (see [`IndexBuild::wait`]).
/// Dropping it waits for the build.
#[derive(Debug)]
pub struct IndexBuild {
    building: Option<std::thread::JoinHandle<Result<Instant>>>,
    /// When the messages were written (the build started then).
    written: Instant,
    /// When the build ended (`written` when nothing was built).
    ended: Option<Instant>,
}

impl IndexBuild {
    fn done(written: Instant, built_any: bool) -> IndexBuild {
        IndexBuild {
            building: None,
            written,
            ended: Some(if built_any { Instant::now() } else { written }),
        }
    }

    /// Waits until the indexes are built (at once when they are); a failed
    /// build leaves them listed in `deferred_indexes` for the next ingest.
    pub fn wait(&mut self) -> Result<()> {
        if let Some(thread) = self.building.take() {
            let ended = thread.join().map_err(|_| Error::Message {
                origin: "index build".to_string(),
                reason: "the thread building indexes stopped unexpectedly".to_string(),
            })??;
            self.ended = Some(ended);
        }
        Ok(())
    }

    /// Fills the index time of `summary`, and its total (up to the end of the
    /// build), after [`IndexBuild::wait`].
    pub fn account(&self, summary: &mut Summary) {
        if let Some(ended) = self.ended {
            summary.index_seconds = ended.duration_since(self.written).as_secs_f64();
            summary.seconds = summary.write_seconds + summary.index_seconds;
        }
    }
}

impl Drop for IndexBuild {
    fn drop(&mut self) {
        let _ = self.wait();
    }
}

/// Page cache (KiB) of the connection building deferred indexes; it also
/// bounds the sorter's memory before it spills to temporary files. The build
/// runs while linking holds its own data, so a small cache keeps the two
/// from adding up, at no cost in time (benches/README.md, "Memory bounds").
const INDEX_BUILD_CACHE_KIB: i64 = 4 << 10;

/// [`ingest`] that returns once the messages are written, with the deferred
/// indexes (if any) still being built: call [`IndexBuild::wait`] before
/// writing to the database again.
pub fn ingest_indexing_behind(
    store: &mut Store,
    inputs: &[PathBuf],
    progress: ProgressFn<'_>,
) -> Result<(Summary, IndexBuild)> {
    ingest_indexing_behind_with(store, inputs, progress, false)
}

/// [`ingest_indexing_behind`]; with `reread`, every input is read from its
/// start (an unchanged file, an epoch from its first commit), so that the
/// messages a build before schema v14 stored get their raw form stored.
pub fn ingest_indexing_behind_with(
    store: &mut Store,
    inputs: &[PathBuf],
    progress: ProgressFn<'_>,
    reread: bool,
) -> Result<(Summary, IndexBuild)> {
    let started = Instant::now();
    let (known_sources, known_files) = if reread {
        Default::default()
    } else {
        let epochs = crate::source::public_inbox::Known {
            last: sources::commit_sources(store)?,
            failed: sources::git_failures(store)?,
        };
        (epochs, sources::file_sources(store)?)
    };
    // A read-only connection lets the parse stage skip extraction for
    // Message-IDs already stored (re-ingests then cost little more than parsing).
    // A load into an empty database has none to skip: a Message-ID seen twice
    // in its input is extracted twice, and the writer keeps the first.
    let path = store.path().to_string();
    let mut session = store.begin_ingest()?;
    let reader = if session.is_bulk_load() {
        None
    } else {
        Lookup::open(session.store())
    };
    let background = session.has_file();
    let mut summary = Summary::default();
    // One raw batch waits: the parse stage holds two more (one parsed, one
    // extracted). Two finished batches wait for the writer.
    let (raw_tx, raw_rx) = sync_channel::<Vec<Item>>(1);
    let (done_tx, done_rx) = sync_channel::<Vec<Done>>(2);
    let (stop_tx, stop_rx) = sync_channel::<()>(0);
    let checkpoint_path = path.clone();
    let result = std::thread::scope(|scope| {
        scope.spawn(move || read_inputs(inputs, &known_sources, &known_files, raw_tx));
        scope.spawn(move || parse_batches(raw_rx, done_tx, reader));
        if background {
            scope.spawn(move || checkpoint_until_stopped(&checkpoint_path, stop_rx));
        }
        let written = write_batches(&mut session, done_rx, &mut summary, progress);
        drop(stop_tx);
        written
    });
    // A failed write leaves its transaction open: ending the session drops
    // what it wrote since the last commit (everything committed before stays).
    let ended = session.end();
    let written = Instant::now();
    summary.write_seconds = written.duration_since(started).as_secs_f64();
    summary.seconds = summary.write_seconds;
    let deferred = ended.as_ref().map(|e| e.indexes_deferred);
    if result.is_err() || !matches!(deferred, Ok(true)) {
        // Built here: the write failed (what was stored gets its indexes
        // now), or no other connection can see this database.
        let rebuilt = bulk::restore_indexes_of(store);
        result?;
        ended?;
        let built = rebuilt?;
        return Ok((summary, IndexBuild::done(written, built > 0)));
    }
    let building = std::thread::Builder::new()
        .name("regtrack-index".to_string())
        .spawn(move || {
            bulk::restore_indexes_at(&path, INDEX_BUILD_CACHE_KIB).map(|_| Instant::now())
        })
        .map_err(|e| Error::Message {
            origin: "index build".to_string(),
            reason: format!("cannot start a thread: {e}"),
        })?;
    Ok((
        summary,
        IndexBuild {
            building: Some(building),
            written,
            ended: None,
        },
    ))
}

/// Runs passive checkpoints every [`CHECKPOINT_EVERY`] from its own
/// connection until `stop` is dropped, and one more then: the ingest's last
/// writes are copied by the ingest, not by the first commit of the link that
/// follows (SQLite's automatic checkpoint would charge the link with them).
/// Failures are harmless (the writer's own checkpoints remain), so they are
/// ignored.
fn checkpoint_until_stopped(path: &str, stop: Receiver<()>) {
    let Some(cp) = Checkpointer::open(path) else {
        return;
    };
    while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = stop.recv_timeout(CHECKPOINT_EVERY)
    {
        cp.checkpoint();
    }
    cp.checkpoint();
}

/// Reader stage: opens each input in turn and sends batches.
fn read_inputs(
    inputs: &[PathBuf],
    known: &crate::source::public_inbox::Known,
    files: &HashMap<String, (i64, i64)>,
    tx: SyncSender<Vec<Item>>,
) {
    let mut batch = Vec::new();
    let mut batch_bytes = 0usize;
    let mut limit = BatchLimit::default();
    let mut send = |item: Item, batch: &mut Vec<Item>, batch_bytes: &mut usize| -> bool {
        if let Item::Raw(Ok(raw)) = &item {
            *batch_bytes += raw.bytes.len();
        }
        batch.push(item);
        if limit.full(*batch_bytes, batch.len()) {
            *batch_bytes = 0;
            limit.grow();
            return tx.send(std::mem::take(batch)).is_ok();
        }
        true
    };
    std::thread::scope(|scope| {
        let mut steps: VecDeque<Step<'_>> = VecDeque::new();
        for path in inputs {
            let file = crate::source::file_identity(path);
            if let Some((source, size, mtime)) = &file
                && files.get(source) == Some(&(*size, *mtime))
            {
                steps.push_back(Step::Item(Item::Unchanged));
                continue;
            }
            steps.push_back(Step::Input);
            steps.extend(open_input(path, known).into_iter().map(Step::Open));
            if let Some((source, size, mtime)) = file {
                steps.push_back(Step::Item(Item::FileDone {
                    source,
                    size,
                    mtime,
                }));
            }
        }
        // Whether the current input opened (its `FileDone` follows then).
        let mut opened = true;
        while let Some(step) = steps.pop_front() {
            // The next epoch opens while this one is opened or read: the
            // parsers had little left to do while an epoch's commits were
            // walked, and nothing at all while the first epoch's were.
            if matches!(&step, Step::Open(o) if o.slow) || matches!(step, Step::Opening(..)) {
                open_next(scope, &mut steps);
            }
            let items = match step {
                Step::Input => {
                    opened = true;
                    continue;
                }
                Step::Item(item) => {
                    if matches!(item, Item::FileDone { .. }) && !opened {
                        continue;
                    }
                    if !send(item, &mut batch, &mut batch_bytes) {
                        return;
                    }
                    continue;
                }
                Step::Open(o) => (o.open)(),
                Step::Opening(path, handle) => handle.join().unwrap_or_else(|_| {
                    crate::source::unopened(path, "opening it stopped unexpectedly".into())
                }),
            };
            for item in items {
                opened &= !matches!(item, Item::InputError { .. });
                if !send(item, &mut batch, &mut batch_bytes) {
                    return;
                }
            }
        }
    });
    if !batch.is_empty() {
        let _ = tx.send(batch);
    }
}

/// Starts opening the next input waiting to be opened on a thread of its
/// own, when it is an epoch (slow to open: its commits are walked).
fn open_next<'s>(scope: &'s std::thread::Scope<'s, '_>, steps: &mut VecDeque<Step<'s>>) {
    if let Some(next) = steps.iter_mut().find(|s| matches!(s, Step::Open(_)))
        && matches!(next, Step::Open(o) if o.slow)
        && let Step::Open(o) = std::mem::replace(next, Step::Input)
    {
        *next = Step::Opening(o.path, scope.spawn(o.open));
    }
}

/// What the reader does next: start an input, hand on an item, or read
/// an input or epoch (opened now, or opening on a thread of its own).
enum Step<'s> {
    Input,
    Item(Item),
    Open(Opener),
    Opening(String, std::thread::ScopedJoinHandle<'s, Items>),
}

/// When a batch is full: at [`FIRST_BATCH_BYTES`] (and a proportionate
/// number of messages) at first, doubling with each batch sent up to
/// [`BATCH_BYTES`] and [`BATCH_MESSAGES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BatchLimit {
    bytes: usize,
    messages: usize,
}

impl Default for BatchLimit {
    fn default() -> Self {
        BatchLimit {
            bytes: FIRST_BATCH_BYTES,
            messages: (BATCH_MESSAGES * FIRST_BATCH_BYTES / BATCH_BYTES).max(1),
        }
    }
}

impl BatchLimit {
    fn full(&self, bytes: usize, messages: usize) -> bool {
        bytes >= self.bytes || messages >= self.messages
    }

    fn grow(&mut self) {
        self.bytes = (self.bytes * 2).min(BATCH_BYTES);
        self.messages = (self.messages * 2).min(BATCH_MESSAGES);
    }
}

/// The openers of one input: an epoch's, each of a public-inbox archive's
/// (read from its progress on), or the file's.
fn open_input(path: &Path, known: &crate::source::public_inbox::Known) -> Vec<Opener> {
    if path != Path::new("-")
        && path.is_dir()
        && let Some(epochs) = crate::source::public_inbox::epochs(path)
    {
        return crate::source::public_inbox::openers(epochs, known);
    }
    vec![crate::source::opener(path)]
}

/// Parse stage: parses each batch in parallel, looks up which Message-IDs are
/// already stored, then extracts the others and makes their records in
/// parallel, keeping order.
///
/// The three passes are pipelined over consecutive batches: batch N is parsed
/// while batch N-1 is extracted and batch N-2's records are made, all in one
/// `rayon::join`. Each pass still runs over a whole batch (its code stays hot
/// in the caches), but the tail of one pass, where one worker would spin and
/// then sleep while the other finishes the last messages, is filled with the
/// other passes' work.
fn parse_batches(rx: Receiver<Vec<Item>>, tx: SyncSender<Vec<Done>>, mut reader: Option<Lookup>) {
    let mut rx = rx.into_iter();
    let mut parsed: Option<(Vec<Stage>, Vec<bool>)> = None;
    let mut extracted: Option<Vec<Extracted>> = None;
    let mut seen = Seen::default();
    loop {
        let batch = rx.next();
        if batch.is_none() && parsed.is_none() && extracted.is_none() {
            return;
        }
        let to_extract = parsed.take();
        let to_finish = extracted.take();
        let conn = reader.take();
        let ((done, next_extracted), (next_parsed, conn)) = rayon::join(
            || {
                rayon::join(
                    || to_finish.map(finish_batch),
                    || {
                        // Extraction and the record (JSON) are separate
                        // passes over a batch, as parsing is: each keeps its
                        // own code hot in the caches (one pass doing all
                        // three per message takes more CPU).
                        to_extract.map(|(staged, known)| {
                            let chunks: Vec<Vec<Extracted>> = extract_chunks(staged, known)
                                .into_par_iter()
                                .map(extract_stage)
                                .collect();
                            chunks.into_iter().flatten().collect::<Vec<Extracted>>()
                        })
                    },
                )
            },
            || {
                let next = batch.map(|b| {
                    let fresh: Vec<Fresh> = b.into_par_iter().map(parse_item).collect();
                    settle(fresh, conn.as_ref(), &mut seen)
                });
                (next, conn)
            },
        );
        reader = conn;
        parsed = next_parsed;
        extracted = next_extracted;
        if let Some(done) = done
            && tx.send(done).is_err()
        {
            return;
        }
    }
}

/// A batch's parsed items made ready for extraction: which messages are
/// stored already (or were parsed earlier in this run, [`Seen`]), and the
/// new ones' bodies and header blocks compressed from the raw bytes they
/// were parsed from ([`packing::pack_messages`]), which then go: only the
/// compressed blocks and the decoded bodies (for extraction) stay. A known
/// message keeps a copy of its raw piece, in case the writer finds it new
/// after all.
fn settle(fresh: Vec<Fresh>, reader: Option<&Lookup>, seen: &mut Seen) -> (Vec<Stage>, Vec<bool>) {
    let ids = fresh.iter().map(|f| match f {
        Fresh::Parsed(p) => Some(p.0.message_id.as_str()),
        Fresh::Done(_) => None,
    });
    let mut known = match reader {
        Some(lookup) => lookup.stored(ids),
        None => vec![false; fresh.len()],
    };
    seen.mark(&fresh, &mut known);
    let new: Vec<(&crate::model::Message, &crate::model::RawMessage)> = fresh
        .iter()
        .zip(&known)
        .filter_map(|(f, known)| match f {
            Fresh::Parsed(p) if !known => Some((&p.0, &p.1)),
            _ => None,
        })
        .collect();
    let mut packed = packing::pack_messages(&new).into_iter();
    drop(new);
    let staged = fresh
        .into_iter()
        .zip(&known)
        .map(|(f, known)| match f {
            Fresh::Done(d) => Stage::Done(d),
            Fresh::Parsed(p) => {
                let (msg, raw) = *p;
                let piece = if *known {
                    Stored::Piece(packing::RawPiece::of_message(&raw, &msg.body))
                } else {
                    Stored::Packed(packed.next().flatten())
                };
                Stage::Parsed(Box::new((msg, raw.origin, piece)))
            }
        })
        .collect();
    (staged, known)
}

/// The Message-IDs parsed so far in this run, to extract a message once
/// when several inputs carry it (a thread cross-posted to the lists of one
/// database: the later copies went through extraction and the writer kept
/// the first). A later copy is handed to the writer unextracted, as one
/// already stored is: with the same content it is a known message; with
/// other content, or when the first copy failed or a false positive of the
/// filter marked a new message, the writer extracts it itself
/// ([`Outcome::Unprepared`]), so what is stored is the same either way.
///
/// A Bloom filter keeps memory flat: [`Seen::CAPACITY`] ids at a false
/// positive rate of 1 in 1,000 take 3.6 MB (a first ingest of a large
/// archive stays under its 300 MB bound, so the filter is kept small); past them
/// no id is added (later copies are extracted as before), so the rate
/// stays so.
struct Seen {
    filter: fastbloom::BloomFilter,
    added: usize,
}

impl Default for Seen {
    fn default() -> Self {
        Seen {
            filter: fastbloom::BloomFilter::with_false_pos(Seen::FALSE_POSITIVES)
                .seed(&0x7265_6774_7261_636b)
                .expected_items(Seen::CAPACITY),
            added: 0,
        }
    }
}

impl Seen {
    /// Ids the filter holds at its false positive rate.
    const CAPACITY: usize = 2_000_000;
    /// Its false positive rate up to [`Seen::CAPACITY`] ids.
    const FALSE_POSITIVES: f64 = 0.001;

    /// Marks `known` the messages of `fresh` (in input order) whose
    /// Message-ID an earlier one in this run had, and adds the others'.
    fn mark(&mut self, fresh: &[Fresh], known: &mut [bool]) {
        for (item, known) in fresh.iter().zip(known.iter_mut()) {
            let Fresh::Parsed(parsed) = item else {
                continue;
            };
            let id = parsed.0.message_id.as_str();
            if *known || self.filter.contains(id) {
                *known = true;
            } else if self.added < Seen::CAPACITY {
                self.filter.insert(id);
                self.added += 1;
            }
        }
    }
}

/// A parsed item with the raw message it was parsed from, until its batch
/// is settled ([`settle`]).
enum Fresh {
    Parsed(Box<(crate::model::Message, crate::model::RawMessage)>),
    Done(Done),
}

/// An item between parsing and extraction (the source's buffer is not held
/// past parsing: what of its raw form is stored is compressed, or copied).
enum Stage {
    Parsed(Box<Parsed>),
    Done(Done),
}

/// What of a parsed message's raw form and body the record will store.
enum Stored {
    /// A new message's, compressed in blocks already (`None`: nothing).
    Packed(Option<packing::Packed>),
    /// A known message's raw piece (copied), stored only should the writer
    /// find the message new after all.
    Piece(Option<packing::RawPiece>),
}

/// A parsed message, where it came from and what of it is stored.
type Parsed = (crate::model::Message, crate::model::Origin, Stored);

/// An item between extraction and its record.
enum Extracted {
    New(Box<(Parsed, crate::model::Extraction)>),
    Done(Done),
}

/// Messages extracted together ([`crate::extract::extract_each`]): few
/// enough that what the extractors share of each stays in the caches.
const EXTRACT_CHUNK: usize = 64;
/// Bytes of body extracted together at most (but for one larger message,
/// alone): the extractors hold a few tens of bytes per line of each body
/// they read, so a chunk holds no more lines than one message may have
/// ([`crate::extract::MAX_EXTRACTED_LINES`]), whatever its messages.
const EXTRACT_CHUNK_BYTES: usize = 256 << 10;

/// A batch's messages (each with whether it is stored) in input order, cut
/// into the chunks extracted together: at most [`EXTRACT_CHUNK`] messages
/// and [`EXTRACT_CHUNK_BYTES`] of the bodies to extract.
fn extract_chunks(staged: Vec<Stage>, known: Vec<bool>) -> Vec<Vec<(Stage, bool)>> {
    let mut chunks: Vec<Vec<(Stage, bool)>> = Vec::new();
    let mut chunk: Vec<(Stage, bool)> = Vec::new();
    let mut bytes = 0;
    for (stage, known) in staged.into_iter().zip(known) {
        let size = match &stage {
            Stage::Parsed(parsed) if !known => parsed.0.body.len(),
            _ => 0,
        };
        if !chunk.is_empty() && (chunk.len() == EXTRACT_CHUNK || bytes + size > EXTRACT_CHUNK_BYTES)
        {
            chunks.push(std::mem::take(&mut chunk));
            bytes = 0;
        }
        bytes += size;
        chunk.push((stage, known));
    }
    if !chunk.is_empty() {
        chunks.push(chunk);
    }
    chunks
}

/// Extracts the parsed messages of a chunk unless their Message-ID is stored
/// (`known`: then an extraction is not needed, and the message is done).
fn extract_stage(chunk: Vec<(Stage, bool)>) -> Vec<Extracted> {
    let msgs: Vec<&crate::model::Message> = chunk
        .iter()
        .filter_map(|(stage, known)| match stage {
            Stage::Parsed(parsed) if !known => Some(&parsed.0),
            _ => None,
        })
        .collect();
    let mut extractions = extractions_of(&msgs).into_iter();
    drop(msgs);
    chunk
        .into_iter()
        .map(|(stage, known)| match stage {
            Stage::Done(d) => Extracted::Done(d),
            Stage::Parsed(parsed) if known => {
                let (msg, origin, stored) = *parsed;
                let rec = match stored {
                    Stored::Piece(piece) => Record::known(msg, origin).with_piece(piece),
                    Stored::Packed(_) => Record::known(msg, origin),
                };
                Extracted::Done(Done::Record(Box::new(rec)))
            }
            Stage::Parsed(parsed) => {
                let extraction = extractions.next().unwrap_or_default();
                Extracted::New(Box::new((*parsed, extraction)))
            }
        })
        .collect()
}

/// The records of a batch, made in parallel (their bodies were compressed
/// when the batch was settled).
fn finish_batch(batch: Vec<Extracted>) -> Vec<Done> {
    batch.into_par_iter().map(finish).collect()
}

/// The record of an extracted message (serialised).
fn finish(item: Extracted) -> Done {
    match item {
        Extracted::Done(d) => d,
        Extracted::New(x) => {
            let ((msg, origin, stored), extraction) = *x;
            let rec = Record::new(msg, origin, extraction);
            let rec = match stored {
                Stored::Packed(Some(packed)) => rec.with_packed(packed),
                Stored::Packed(None) => rec,
                Stored::Piece(piece) => rec.with_piece(piece),
            };
            Done::Record(Box::new(rec))
        }
    }
}

/// The extraction of a message as it is stored, its signals left for the
/// link to read ([`crate::extract::extract_each_deferred`]); a panicking
/// extractor leaves it empty, and the message is stored all the same.
fn extraction_of(msg: &crate::model::Message) -> crate::model::Extraction {
    catch_unwind(AssertUnwindSafe(|| {
        crate::extract::extract_each_deferred(&[msg])
            .pop()
            .unwrap_or_default()
    }))
    .unwrap_or_default()
}

/// The extractions of `msgs`, in order, made together; when an extractor
/// panics, each is made alone again, so that only the message it panicked
/// on is left empty.
fn extractions_of(msgs: &[&crate::model::Message]) -> Vec<crate::model::Extraction> {
    catch_unwind(AssertUnwindSafe(|| {
        crate::extract::extract_each_deferred(msgs)
    }))
    .unwrap_or_else(|_| msgs.iter().map(|m| extraction_of(m)).collect())
}

/// The record of a new message, extracted.
fn extracted(msg: crate::model::Message, origin: crate::model::Origin) -> Record {
    let extraction = extraction_of(&msg);
    Record::new(msg, origin, extraction)
}

fn parse_item(item: Item) -> Fresh {
    match item {
        Item::Raw(Ok(raw)) => {
            let bytes = raw.bytes.len() as u64;
            let parsed = catch_unwind(AssertUnwindSafe(|| crate::mail::parse(&raw)))
                .unwrap_or_else(|_| {
                    Err(Error::Message {
                        origin: raw.origin.describe(),
                        reason: "the mail parser panicked".into(),
                    })
                });
            match parsed {
                Ok(msg) => Fresh::Parsed(Box::new((msg, raw))),
                Err(e) => Fresh::Done(Done::Failed {
                    at: FailureAt::of(&raw.origin),
                    place: raw.origin.describe(),
                    message_id: None,
                    reason: reason_of(&e),
                    bytes,
                }),
            }
        }
        other => Fresh::Done(process_other(other)),
    }
}

fn process_other(item: Item) -> Done {
    match item {
        Item::Raw(Ok(raw)) => Done::Failed {
            at: FailureAt::of(&raw.origin),
            place: raw.origin.describe(),
            message_id: None,
            reason: "internal: unparsed message".into(),
            bytes: raw.bytes.len() as u64,
        },
        Item::Raw(Err(e)) => {
            let (source, place) = match &e {
                Error::Io { path, .. }
                | Error::Unrecognised { path, .. }
                | Error::Git { path, .. } => {
                    (path.display().to_string(), path.display().to_string())
                }
                Error::Message { origin, .. } => (origin.clone(), origin.clone()),
                other => (String::from("<input>"), other.to_string()),
            };
            let at = split_place(&source);
            Done::Failed {
                at,
                place,
                message_id: None,
                reason: reason_of(&e),
                bytes: 0,
            }
        }
        Item::InputError { path, reason } => Done::InputError(FailureNote {
            place: path,
            reason,
        }),
        Item::Mark {
            source,
            kind,
            last_commit,
        } => Done::Mark {
            source,
            kind,
            last_commit,
        },
        Item::FileDone {
            source,
            size,
            mtime,
        } => Done::FileRead {
            source,
            size,
            mtime,
        },
        Item::Unchanged => Done::Unchanged,
        Item::Planned { messages } => Done::Planned(messages),
    }
}

/// The reason of an error without its place.
fn reason_of(e: &Error) -> String {
    match e {
        Error::Message { reason, .. } => reason.clone(),
        other => other.to_string(),
    }
}

/// `path:offset` (as [`Origin::describe`] writes it) back into a place.
fn split_place(place: &str) -> FailureAt {
    if let Some((path, off)) = place.rsplit_once(':') {
        if let Ok(offset) = off.parse::<u64>() {
            return FailureAt {
                source: path.to_string(),
                offset: Some(offset),
                git_commit: None,
            };
        }
    }
    if let Some((repo, commit)) = place.rsplit_once('@') {
        if commit.len() >= 40 && commit.bytes().all(|b| b.is_ascii_hexdigit()) {
            return FailureAt {
                source: repo.to_string(),
                offset: None,
                git_commit: Some(commit.to_string()),
            };
        }
    }
    FailureAt {
        source: place.to_string(),
        offset: None,
        git_commit: None,
    }
}

/// Writer stage: batches are written in transactions of at most
/// [`COMMIT_BYTES`] of mail, [`COMMIT_MESSAGES`] or [`COMMIT_INTERVAL`],
/// whichever comes first.
/// Fewer, larger commits write each touched index page to the WAL fewer times;
/// readers still see progress every second, and a killed run loses at most
/// the open transaction.
fn write_batches(
    session: &mut IngestSession<'_>,
    rx: Receiver<Vec<Done>>,
    summary: &mut Summary,
    progress: ProgressFn<'_>,
) -> Result<()> {
    let mut planned = 0u64;
    let commit = |session: &mut IngestSession<'_>, summary: &Summary, planned: u64| -> Result<()> {
        session.commit()?;
        progress(&Progress {
            bytes: summary.bytes,
            messages: summary.messages(),
            planned_messages: planned,
        });
        Ok(())
    };
    let mut open: Option<(Instant, u64, u64)> = None;
    let mut blocks = packing::BodyBlocks::default();
    // A commit that failed in an earlier run and is read now is no failure.
    let retried = sources::has_git_failures(session.store())?;
    for batch in rx {
        let now = sources::now();
        if open.is_none() {
            session.begin()?;
            open = Some((Instant::now(), summary.bytes, summary.messages()));
        }
        let store = session.store();
        for done in batch {
            match done {
                Done::Record(rec) => {
                    summary.bytes += rec.message.raw_size;
                    if retried && let crate::model::Origin::Git { repo, commit } = &rec.origin {
                        sources::clear_git_failure(store, repo, commit)?;
                    }
                    let mut outcome = insert_record(store, &rec, now, &mut blocks)?;
                    if outcome == Outcome::Unprepared {
                        // Stored when parsed, gone now (another process
                        // removed it), or a copy of new content: extracted
                        // here, and stored.
                        let (msg, origin, piece) = rec.into_parts();
                        let rec = extracted(msg, origin).with_piece(piece);
                        outcome = insert_record(store, &rec, now, &mut blocks)?;
                    }
                    match outcome {
                        Outcome::New(_) => summary.new += 1,
                        Outcome::Known | Outcome::Unprepared => summary.known += 1,
                        Outcome::Duplicate => summary.duplicates += 1,
                        Outcome::Replaced => {
                            summary.duplicates += 1;
                            summary.replaced += 1;
                        }
                    }
                }
                Done::Failed {
                    at,
                    place,
                    message_id,
                    reason,
                    bytes,
                } => {
                    summary.bytes += bytes;
                    if at.git_commit.is_some() {
                        summary.failed_commits += 1;
                    }
                    if sources::insert_failure(store, &at, message_id.as_deref(), &reason, now)? {
                        summary.failed += 1;
                        if summary.failures.len() < MAX_FAILURE_NOTES {
                            summary.failures.push(FailureNote { place, reason });
                        }
                    } else {
                        summary.failed_again += 1;
                    }
                }
                Done::InputError(note) => summary.input_errors.push(note),
                Done::Mark {
                    source,
                    kind,
                    last_commit,
                } => sources::set_source(store, &source, &kind, Some(&last_commit), now)?,
                Done::FileRead {
                    source,
                    size,
                    mtime,
                } => sources::set_file_source(store, &source, size, mtime, now)?,
                Done::Unchanged => summary.unchanged += 1,
                Done::Planned(n) => planned += n,
            }
        }
        if let Some((began, bytes, messages)) = open
            && (began.elapsed() >= COMMIT_INTERVAL
                || summary.bytes - bytes >= COMMIT_BYTES
                || summary.messages() - messages >= COMMIT_MESSAGES)
        {
            commit(session, summary, planned)?;
            open = None;
        }
    }
    if open.is_some() {
        commit(session, summary, planned)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A parsed message of Message-ID `id` and a body of `len` bytes.
    fn parsed_stage(id: &str, len: usize) -> Stage {
        let msg = crate::model::Message {
            message_id: id.to_string(),
            body: "x".repeat(len),
            ..Default::default()
        };
        let origin = crate::model::Origin::File {
            path: "in.mbox".into(),
            offset: 0,
        };
        Stage::Parsed(Box::new((msg, origin, Stored::Packed(None))))
    }

    /// A parsed message of Message-ID `id`, with its raw message.
    fn fresh(id: &str) -> Fresh {
        let raw = crate::model::RawMessage {
            bytes: format!("Message-ID: <{id}>\n\nbody\n").into_bytes().into(),
            origin: crate::model::Origin::File {
                path: "in.mbox".into(),
                offset: 0,
            },
            format: crate::model::RawFormat::Rfc822,
        };
        let msg = crate::mail::parse(&raw).unwrap();
        Fresh::Parsed(Box::new((msg, raw)))
    }

    #[test]
    fn a_message_id_seen_earlier_in_the_run_is_marked_known() {
        let parsed = fresh;
        let mut seen = Seen::default();
        let first = [parsed("a@x"), parsed("b@x"), parsed("a@x"), parsed("c@x")];
        // `c@x` is stored already (looked up): known, and not added.
        let mut known = vec![false, false, false, true];
        seen.mark(&first, &mut known);
        assert_eq!(known, [false, false, true, true]);
        // A later batch: ids of the earlier one are known, new ones not.
        let second = [parsed("b@x"), parsed("d@x"), parsed("d@x")];
        let mut known = vec![false; 3];
        seen.mark(&second, &mut known);
        assert_eq!(known, [true, false, true]);
        assert_eq!(seen.added, 3);
        // Full: later ids are extracted (never marked) rather than added.
        seen.added = Seen::CAPACITY;
        let third = [parsed("e@x"), parsed("e@x")];
        let mut known = vec![false; 2];
        seen.mark(&third, &mut known);
        assert_eq!(known, [false, false]);
    }

    #[test]
    fn extraction_chunks_keep_order_and_bound_messages_and_bytes() {
        let parsed = |id: usize, len: usize| parsed_stage(&format!("m{id}@x"), len);
        let sizes = [
            10,
            1000,
            EXTRACT_CHUNK_BYTES,
            5,
            EXTRACT_CHUNK_BYTES / 2,
            EXTRACT_CHUNK_BYTES / 2,
            7,
        ];
        let mut staged: Vec<Stage> = sizes
            .iter()
            .enumerate()
            .map(|(i, &n)| parsed(i, n))
            .collect();
        staged.extend((0..200).map(|i| parsed(100 + i, 1)));
        let mut known = vec![false; staged.len()];
        // A stored message's body is not extracted: it takes no room.
        staged.push(parsed(999, 10 * EXTRACT_CHUNK_BYTES));
        known.push(true);
        let n = staged.len();
        let chunks = extract_chunks(staged, known);
        let ids: Vec<String> = chunks
            .iter()
            .flatten()
            .map(|(s, _)| match s {
                Stage::Parsed(p) => p.0.message_id.clone(),
                Stage::Done(_) => String::new(),
            })
            .collect();
        let want: Vec<String> = (0..sizes.len())
            .chain((0..200).map(|i| 100 + i))
            .chain([999])
            .map(|i| format!("m{i}@x"))
            .collect();
        assert_eq!((ids.len(), &ids), (n, &want));
        for c in &chunks {
            let bytes: usize = c
                .iter()
                .map(|(s, k)| match s {
                    Stage::Parsed(p) if !k => p.0.body.len(),
                    _ => 0,
                })
                .sum();
            assert!(c.len() <= EXTRACT_CHUNK, "{}", c.len());
            assert!(c.len() == 1 || bytes <= EXTRACT_CHUNK_BYTES, "{bytes}");
        }
        // The message of the chunk's size goes alone; the next chunk takes
        // what fits beside a half.
        assert_eq!(chunks[1].len(), 1);
        assert_eq!(chunks[2].len(), 2);
    }

    #[test]
    fn places_are_split_back_into_path_and_offset_or_commit() {
        assert_eq!(
            split_place("a/b.mbox:123"),
            FailureAt {
                source: "a/b.mbox".into(),
                offset: Some(123),
                git_commit: None
            }
        );
        let c = "0123456789012345678901234567890123456789";
        assert_eq!(
            split_place(&format!("git/0.git@{c}")).git_commit.as_deref(),
            Some(c)
        );
        assert_eq!(split_place("plain").source, "plain");
    }

    #[test]
    fn batches_start_small_and_double_up_to_the_largest() {
        let mut limit = BatchLimit::default();
        assert!(!limit.full(FIRST_BATCH_BYTES - 1, 1));
        assert!(limit.full(FIRST_BATCH_BYTES, 1));
        let first_messages = BATCH_MESSAGES * FIRST_BATCH_BYTES / BATCH_BYTES;
        assert!(limit.full(0, first_messages));
        assert!(!limit.full(0, first_messages - 1));
        let mut sizes = vec![limit.bytes];
        while limit.bytes < BATCH_BYTES {
            limit.grow();
            sizes.push(limit.bytes);
        }
        let doublings = (BATCH_BYTES / FIRST_BATCH_BYTES).trailing_zeros() as usize;
        assert_eq!(sizes.len(), doublings + 1);
        assert_eq!(sizes[1], 2 * FIRST_BATCH_BYTES);
        assert_eq!(limit.messages, BATCH_MESSAGES);
        limit.grow();
        assert_eq!((limit.bytes, limit.messages), (BATCH_BYTES, BATCH_MESSAGES));
        assert!(!limit.full(BATCH_BYTES - 1, BATCH_MESSAGES - 1));
    }
}
