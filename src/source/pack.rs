//! Message blobs decoded straight from an epoch's pack files, each delta base
//! inflated once.
//!
//! gix decodes every object on its own: a blob stored as a delta of another
//! message inflates that base (and the base's base) again each time, and its
//! cache keeps only whole results. An epoch is read oldest message first,
//! while git makes the newer message the base, so on linux-ext4 reading the
//! 42,700 blobs that way inflates 605 MB for 253 MB of pack content.
//!
//! The reading order is known before the first blob is read (the walk of
//! first-parent history), so [`PackReader::plan`] counts how often each pack
//! entry (a blob, or a base on some blob's delta chain) will be needed, and
//! [`PackReader::read`] keeps a decoded entry while uses remain, within
//! [`CACHE_BYTES`]. A read decodes its chain only down to the nearest entry
//! an earlier read decoded, and the plan counts just those uses: a repacked
//! epoch (newer message the base) then holds a chain's entries until their
//! own turn, and a freshly written one (`git fast-import`: each message a
//! delta of the one before) holds one message. What it cannot place or
//! decode (loose objects, `REF_DELTA` chains, damaged entries) is left to
//! the caller's gix path.
//!
//! Pack files are memory-mapped, and a mapped file that shrinks (truncated
//! under the run) would kill the process with `SIGBUS` on the next page read
//! past its new end. So a pack is used only when its trailer matches the
//! checksum its index records ([`PackReader::damaged`] names one that does
//! not: truncated before the run), and before every read the length of each
//! mapped file is checked against what was mapped: a shrunk pack is an error
//! ([`PackError::shrunk`]) and nothing more is read from any pack.
//!
//! Entries are inflated with libdeflate: the whole stream at once, into a
//! buffer of the size the entry header states, which the stream must fill:
//! faster than a streaming inflate, for the blobs and for the many small
//! commit objects of the walk alike (benches/README.md, "The pack reader").
//!
//! Delta application ([`apply_delta`]) and inflating are therefore this
//! module's own code, not gix's, and have their own fuzz target
//! (`fuzz/fuzz_targets/pack_delta.rs`: hostile deltas and streams, valid
//! deltas against the target they were built from, flate2 as the
//! reference): they are kept because the planned read order is the gain,
//! linux-ext4's 42,700 blobs inflating 253 MB here instead of gix's 605 MB.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use gix::odb::pack::Bundle;
use gix::odb::pack::data::Entry;
use gix::odb::pack::data::entry::Header;
use gix::oid;

/// Bytes of decoded entries kept for later uses: a bound for odd packs. The
/// linux-ext4 epoch holds at most 5.4 MB at once (63 MB when the plan counted
/// every entry of a blob's whole chain, uses no read would make).
pub const CACHE_BYTES: usize = 64 << 20;

/// Longest delta chain followed (git's default depth is 50).
const MAX_CHAIN: usize = 10_000;

/// Objects planned or read between two [`PackReader::remap`]s: their entries
/// lie all over the pack, and the pages they touch go then.
const REMAP_EVERY: usize = 2000;

/// Largest entry (and delta result) decoded here, so that a damaged size
/// field costs at most this much memory; a larger object (no mail is) is
/// left to gix.
pub const MAX_OBJECT: u64 = 64 << 20;

/// Where an entry lies: which pack, at what offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Loc {
    pack: u32,
    offset: u64,
}

/// Why an entry could not be decoded here.
#[derive(Debug, thiserror::Error)]
#[error("{pack}: entry at offset {offset}: {reason}")]
pub struct PackError {
    /// The pack file.
    pub pack: String,
    /// The entry's offset in it.
    pub offset: u64,
    /// What went wrong.
    pub reason: String,
    /// True when a mapped pack file is shorter than when it was mapped:
    /// nothing more may be read through any mapping of it (gix's included).
    pub shrunk: bool,
}

/// Decodes the blobs of one epoch's packs in a planned order.
pub struct PackReader {
    dir: PathBuf,
    hash: gix::hash::Kind,
    /// Every index file of the folder when it was opened.
    listed: Vec<PathBuf>,
    /// Index files of the packs opened, in the order of `bundles`.
    names: Vec<PathBuf>,
    bundles: Vec<Bundle>,
    /// The pack file of each bundle, open, to check its length before reads.
    files: Vec<std::fs::File>,
    /// Packs left unused because their trailer does not match their index.
    damaged: Vec<String>,
    /// Uses still to come of each planned entry.
    uses: HashMap<Loc, u32>,
    cache: HashMap<Loc, Vec<u8>>,
    cached: usize,
    budget: usize,
    inflate: libdeflater::Decompressor,
    /// The delta chain being resolved, requested entry first.
    chain: Vec<(Loc, Entry)>,
    delta: Vec<u8>,
    /// Objects planned or read since the last remap.
    since_remap: usize,
}

impl PackReader {
    /// Opens the packs in `pack/` of the object folder `objects` (none when
    /// there are none; every blob then takes the gix path).
    pub fn open(objects: &Path, hash: gix::hash::Kind) -> PackReader {
        let dir = objects.join("pack");
        let names = index_files(&dir);
        let mut reader = PackReader {
            dir,
            hash,
            listed: names.clone(),
            names: Vec::new(),
            bundles: Vec::new(),
            files: Vec::new(),
            damaged: Vec::new(),
            uses: HashMap::new(),
            cache: HashMap::new(),
            cached: 0,
            budget: CACHE_BYTES,
            inflate: libdeflater::Decompressor::new(),
            chain: Vec::new(),
            delta: Vec::new(),
            since_remap: 0,
        };
        for name in names {
            if let Some((bundle, file)) = reader.open_bundle(&name) {
                reader.names.push(name);
                reader.bundles.push(bundle);
                reader.files.push(file);
            }
        }
        reader
    }

    /// The pack of index `name` and its file, when its trailer matches the
    /// pack checksum its index records (else it is named in `damaged`).
    fn open_bundle(&mut self, name: &Path) -> Option<(Bundle, std::fs::File)> {
        let bundle = Bundle::at(name, self.hash).ok()?;
        let file = std::fs::File::open(bundle.pack.path()).ok()?;
        let min = 12 + self.hash.len_in_bytes();
        if bundle.pack.data_len() < min || bundle.pack.checksum() != bundle.index.pack_checksum() {
            self.damaged.push(format!(
                "{}: {} bytes, its trailer does not match the checksum its index records (truncated, or being rewritten)",
                bundle.pack.path().display(),
                bundle.pack.data_len()
            ));
            return None;
        }
        Some((bundle, file))
    }

    /// The packs of the folder that are truncated or do not match their
    /// index, said; empty when every pack is sound.
    pub fn damaged(&self) -> &[String] {
        &self.damaged
    }

    /// The first mapped pack file that is now shorter than its mapping
    /// (a read through the mapping past the new end would raise `SIGBUS`).
    pub fn shrunk(&self) -> Option<PackError> {
        self.bundles.iter().zip(&self.files).find_map(|(b, f)| {
            // The length as `lseek` gives it: a third of `fstat`'s cost,
            // paid before every object read (the file offset is unused: the
            // pack is read through its mapping).
            let now = std::io::Seek::seek(&mut &*f, std::io::SeekFrom::End(0)).unwrap_or(0);
            let mapped = b.pack.data_len() as u64;
            (now < mapped).then(|| PackError {
                pack: b.pack.path().display().to_string(),
                offset: 0,
                reason: format!(
                    "the pack file shrank from {mapped} to {now} bytes while mapped (truncated under the run)"
                ),
                shrunk: true,
            })
        })
    }

    /// Sets the cache budget in bytes (tests).
    pub fn with_budget(mut self, bytes: usize) -> Self {
        self.budget = bytes;
        self
    }

    /// Plans reading `ids` in this order: each one's place in the packs
    /// (`None`: not in a pack, or on a chain this reader does not follow).
    ///
    /// The plan follows what [`read`](Self::read) will do: a blob's delta
    /// chain is decoded down to the nearest entry an earlier blob decoded
    /// (cached by then, one more use of it) or to a whole object. So each
    /// entry counts one use for its decoding and one for each later chain
    /// that stops at it, and every count is spent by the end: none is left
    /// for chain entries below a cached one (which a count of the whole chain
    /// would leave, keeping them cached for good).
    pub fn plan<'a>(&mut self, ids: impl IntoIterator<Item = Option<&'a oid>>) -> Vec<Option<Loc>> {
        let mut decoded = Vec::new();
        ids.into_iter()
            .map(|id| {
                self.count_towards_remap();
                let loc = self.locate(id?)?;
                let reused = self.planned_chain(loc, &mut decoded).ok()?;
                if let Some(n) = reused.and_then(|l| self.uses.get_mut(&l)) {
                    *n += 1;
                }
                for l in &decoded {
                    self.uses.insert(*l, 1);
                }
                Some(loc)
            })
            .collect()
    }

    /// The entries a planned read of `loc` decodes, into `decoded`, and the
    /// entry decoded for an earlier planned read it stops at (`None`: it
    /// goes down to a whole object).
    fn planned_chain(&self, loc: Loc, decoded: &mut Vec<Loc>) -> Result<Option<Loc>, PackError> {
        decoded.clear();
        self.walk_chain(loc, |l| self.uses.contains_key(l), |l, _| decoded.push(l))
    }

    /// The blob at `loc`, which [`plan`](Self::plan) returned.
    pub fn read(&mut self, loc: Loc) -> Result<Vec<u8>, PackError> {
        self.decode(loc, Header::Blob)
    }

    /// The commit `id`, unplanned (`None`: not in a pack).
    pub fn read_commit(&mut self, id: &oid) -> Option<Result<Vec<u8>, PackError>> {
        let loc = self.locate(id)?;
        Some(self.decode(loc, Header::Commit))
    }

    /// The object at `loc`, whose delta chain must start from a `kind`.
    fn decode(&mut self, loc: Loc, kind: Header) -> Result<Vec<u8>, PackError> {
        self.count_towards_remap();
        if let Some(e) = self.shrunk() {
            return Err(e);
        }
        let mut chain = std::mem::take(&mut self.chain);
        let found = self.chain_of(loc, &mut chain);
        self.chain = chain;
        /// What the next delta applies to: a cached entry, read in place
        /// (a copy of it for `apply_delta` to read was 1 % of an epoch
        /// ingest's instructions), or the entry decoded last.
        enum Base {
            Cached(Loc),
            Decoded(Vec<u8>),
        }
        let mut base = match found? {
            Some(hit) => Base::Cached(hit),
            None => {
                let (root, entry) = self.chain.pop().expect("the loop pushed the root");
                if entry.header != kind {
                    let found = format!("a {:?}, not a {kind:?}", entry.header);
                    return Err(self.error(root, found));
                }
                let mut object = Vec::new();
                self.inflate_into(root, &entry, &mut object)?;
                self.keep(root, &object);
                Base::Decoded(object)
            }
        };
        while let Some((at, entry)) = self.chain.pop() {
            let mut delta = std::mem::take(&mut self.delta);
            let inflated = self.inflate_into(at, &entry, &mut delta);
            let applied = inflated.and_then(|()| {
                let from = match &base {
                    Base::Cached(hit) => self.cache.get(hit).map_or(&[][..], Vec::as_slice),
                    Base::Decoded(object) => object,
                };
                apply_delta(from, &delta).map_err(|reason| self.error(at, reason.into()))
            });
            self.delta = delta;
            if let Base::Cached(hit) = base {
                self.release(hit);
            }
            let object = applied?;
            self.keep(at, &object);
            base = Base::Decoded(object);
        }
        Ok(match base {
            Base::Cached(hit) => self.take(hit),
            Base::Decoded(object) => object,
        })
    }

    /// The delta chain of `loc` into `chain`, requested entry first, down to
    /// a whole object or to a cached entry (returned; it is not in `chain`).
    fn chain_of(&self, loc: Loc, chain: &mut Vec<(Loc, Entry)>) -> Result<Option<Loc>, PackError> {
        chain.clear();
        self.walk_chain(
            loc,
            |l| self.cache.contains_key(l),
            |l, e| chain.push((l, e)),
        )
    }

    /// Follows the delta chain of `loc` down to the first entry `stop`
    /// accepts (returned) or to a whole object (`None`), handing every entry
    /// passed on the way, `loc` first, to `pass`.
    fn walk_chain(
        &self,
        loc: Loc,
        stop: impl Fn(&Loc) -> bool,
        mut pass: impl FnMut(Loc, Entry),
    ) -> Result<Option<Loc>, PackError> {
        let mut cur = loc;
        let mut passed = 0;
        loop {
            if stop(&cur) {
                return Ok(Some(cur));
            }
            let entry = self.entry(cur)?;
            let base = self.base_of(cur, &entry)?;
            pass(cur, entry);
            passed += 1;
            match base {
                Some(_) if passed >= MAX_CHAIN => {
                    return Err(self.error(loc, "delta chain too long".into()));
                }
                Some(base) => cur = base,
                None => return Ok(None),
            }
        }
    }

    /// Counts one object planned or read; every [`REMAP_EVERY`] the packs
    /// are mapped anew, so resident memory stays bounded whatever the pack
    /// size.
    fn count_towards_remap(&mut self) {
        self.since_remap += 1;
        if self.since_remap > REMAP_EVERY {
            self.remap();
        }
    }

    /// Maps the packs anew: pages read so far leave resident memory. When the
    /// pack files changed meanwhile (a repack), every later blob takes the gix
    /// path, as planned places no longer hold.
    pub fn remap(&mut self) {
        self.since_remap = 0;
        let reopened: Option<Vec<(Bundle, std::fs::File)>> = (index_files(&self.dir)
            == self.listed)
            .then(|| {
                let names = self.names.clone();
                names.iter().map(|n| self.open_bundle(n)).collect()
            })
            .flatten();
        match reopened {
            Some(bundles) => {
                (self.bundles, self.files) = bundles.into_iter().unzip();
            }
            None => {
                self.bundles.clear();
                self.files.clear();
                self.names.clear();
                self.listed.clear();
                self.uses.clear();
                self.cache.clear();
                self.cached = 0;
            }
        }
    }

    /// Bytes of decoded entries held for later uses.
    pub fn cached_bytes(&self) -> usize {
        self.cached
    }

    fn locate(&self, id: &oid) -> Option<Loc> {
        self.bundles.iter().enumerate().find_map(|(i, b)| {
            let at = b.index.lookup(id)?;
            Some(Loc {
                pack: u32::try_from(i).ok()?,
                offset: b.index.pack_offset_at_index(at),
            })
        })
    }

    fn bundle(&self, loc: Loc) -> Result<&Bundle, PackError> {
        self.bundles
            .get(loc.pack as usize)
            .ok_or_else(|| self.error(loc, "pack no longer open".into()))
    }

    fn entry(&self, loc: Loc) -> Result<Entry, PackError> {
        let bundle = self.bundle(loc)?;
        if loc.offset >= bundle.pack.pack_end() as u64 {
            return Err(self.error(loc, "offset beyond the pack data".into()));
        }
        let entry = bundle
            .pack
            .entry(loc.offset)
            .map_err(|e| self.error(loc, e.to_string()))?;
        if entry.decompressed_size > MAX_OBJECT {
            return Err(self.error(
                loc,
                format!(
                    "entry of {} bytes, over {MAX_OBJECT}",
                    entry.decompressed_size
                ),
            ));
        }
        Ok(entry)
    }

    /// The base of a delta entry (`None`: a whole object).
    fn base_of(&self, loc: Loc, entry: &Entry) -> Result<Option<Loc>, PackError> {
        match entry.header {
            Header::OfsDelta { base_distance } => entry
                .checked_base_pack_offset(base_distance)
                .filter(|&o| o < loc.offset)
                .map(|offset| Some(Loc { offset, ..loc }))
                .ok_or_else(|| self.error(loc, "delta base before the pack start".into())),
            Header::RefDelta { .. } => Err(self.error(loc, "REF_DELTA".into())),
            _ => Ok(None),
        }
    }

    /// Inflates `entry` into `out` (exactly its stated size).
    fn inflate_into(
        &mut self,
        loc: Loc,
        entry: &Entry,
        out: &mut Vec<u8>,
    ) -> Result<(), PackError> {
        let input = self.bundles.get(loc.pack as usize).and_then(|b| {
            b.pack
                .entry_slice(entry.data_offset..b.pack.pack_end() as u64)
        });
        let Some(input) = input else {
            return Err(self.error(loc, "data beyond the pack".into()));
        };
        inflate_exact(&mut self.inflate, input, entry.decompressed_size, out)
            .map_err(|reason| self.error(loc, reason))
    }

    /// Counts one use of a decoded entry and caches it when more are to come.
    fn keep(&mut self, loc: Loc, object: &[u8]) {
        if self.use_one(loc) > 0 && self.cached + object.len() <= self.budget {
            self.cached += object.len();
            self.cache.insert(loc, object.to_vec());
        }
    }

    /// A cached entry for one use (moved out on its last).
    fn take(&mut self, loc: Loc) -> Vec<u8> {
        if self.use_one(loc) == 0 {
            let object = self.cache.remove(&loc).unwrap_or_default();
            self.cached -= object.len();
            object
        } else {
            self.cache.get(&loc).cloned().unwrap_or_default()
        }
    }

    /// Counts one use of a cached entry read in place, and drops it from the
    /// cache on its last.
    fn release(&mut self, loc: Loc) {
        if self.use_one(loc) == 0
            && let Some(object) = self.cache.remove(&loc)
        {
            self.cached -= object.len();
        }
    }

    /// Counts one use of `loc`; returns the uses left.
    fn use_one(&mut self, loc: Loc) -> u32 {
        match self.uses.get_mut(&loc) {
            Some(n) if *n > 1 => {
                *n -= 1;
                *n
            }
            Some(_) => {
                self.uses.remove(&loc);
                0
            }
            None => 0,
        }
    }

    fn error(&self, loc: Loc, reason: String) -> PackError {
        PackError {
            pack: self.names.get(loc.pack as usize).map_or_else(
                || self.dir.display().to_string(),
                |n| n.display().to_string(),
            ),
            offset: loc.offset,
            reason,
            shrunk: false,
        }
    }
}

/// The `.idx` files of a pack folder, sorted.
fn index_files(dir: &Path) -> Vec<PathBuf> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "idx"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Inflates the zlib stream at the start of `input` into `out`, which it
/// must fill to exactly `size` bytes (an entry header's size; at most
/// [`MAX_OBJECT`]). The stream ends where its data says: what follows it in
/// `input` (the pack's other entries) is not read.
fn inflate_exact(
    inflate: &mut libdeflater::Decompressor,
    input: &[u8],
    size: u64,
    out: &mut Vec<u8>,
) -> Result<(), String> {
    if size > MAX_OBJECT {
        return Err(format!("entry of {size} bytes, over {MAX_OBJECT}"));
    }
    let size = size as usize;
    out.clear();
    out.resize(size, 0);
    match inflate.zlib_decompress(input, out) {
        Ok(n) if n == size => Ok(()),
        Ok(n) => Err(format!("inflated {n} of {size} bytes")),
        Err(e) => Err(format!("inflating: {e}")),
    }
}

/// `inflate_exact` with a decompressor of its own: what the fuzz target
/// `pack_delta` calls (not part of the library's interface).
#[doc(hidden)]
pub fn inflate_entry(input: &[u8], size: u64) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    inflate_exact(&mut libdeflater::Decompressor::new(), input, size, &mut out)?;
    Ok(out)
}

/// A git delta's size header field (little-endian base-128) at `*at`;
/// `None` when it is cut short or does not fit a `usize`.
fn delta_size(delta: &[u8], at: &mut usize) -> Option<usize> {
    let mut value = 0usize;
    let mut shift = 0;
    loop {
        let byte = *delta.get(*at)?;
        *at += 1;
        let part = usize::from(byte & 0x7f);
        let shifted = part.checked_shl(shift)?;
        if shifted >> shift != part {
            return None;
        }
        value |= shifted;
        if byte & 0x80 == 0 {
            return Some(value);
        }
        shift += 7;
        if shift > 63 {
            return None;
        }
    }
}

/// Applies git delta `delta` to `base`: the result, or why the delta is
/// damaged. The result is never longer than the size the delta states, nor
/// than [`MAX_OBJECT`].
pub fn apply_delta(base: &[u8], delta: &[u8]) -> Result<Vec<u8>, &'static str> {
    let mut at = 0;
    let base_size = delta_size(delta, &mut at).ok_or("truncated delta header")?;
    if base_size != base.len() {
        return Err("delta base size does not match its base");
    }
    let size = delta_size(delta, &mut at).ok_or("truncated delta header")?;
    if size as u64 > MAX_OBJECT {
        return Err("delta result too large");
    }
    let mut out = Vec::with_capacity(size);
    while let Some(&op) = delta.get(at) {
        at += 1;
        if op & 0x80 != 0 {
            let mut field = |bits: u8, bytes: usize| -> Option<usize> {
                let mut v = 0usize;
                for k in 0..bytes {
                    if bits & (1 << k) != 0 {
                        v |= usize::from(*delta.get(at)?) << (8 * k);
                        at += 1;
                    }
                }
                Some(v)
            };
            let offset = field(op & 0x0f, 4).ok_or("truncated copy")?;
            let len = match field((op >> 4) & 0x07, 3).ok_or("truncated copy")? {
                0 => 0x10000,
                n => n,
            };
            let piece = offset
                .checked_add(len)
                .and_then(|end| base.get(offset..end))
                .ok_or("copy outside the base")?;
            if out.len() + piece.len() > size {
                return Err("delta result longer than stated");
            }
            out.extend_from_slice(piece);
        } else if op != 0 {
            let piece = delta
                .get(at..at + usize::from(op))
                .ok_or("truncated insert")?;
            if out.len() + piece.len() > size {
                return Err("delta result longer than stated");
            }
            out.extend_from_slice(piece);
            at += usize::from(op);
        } else {
            return Err("reserved delta opcode 0");
        }
    }
    if out.len() != size {
        return Err("delta result shorter than stated");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A delta in git's encoding: sizes, then copy and insert opcodes.
    fn delta(base_len: usize, result_len: usize, ops: &[u8]) -> Vec<u8> {
        let mut d = Vec::new();
        for mut n in [base_len, result_len] {
            loop {
                let b = (n & 0x7f) as u8;
                n >>= 7;
                d.push(if n > 0 { b | 0x80 } else { b });
                if n == 0 {
                    break;
                }
            }
        }
        d.extend_from_slice(ops);
        d
    }

    #[test]
    fn a_delta_copies_from_its_base_and_inserts_new_bytes() {
        let base = b"Subject: [ext4] regression\n\nbody text here\n";
        // copy base[0..9] ("Subject: "), insert "Re: ", copy base[9..]
        let rest = (base.len() - 9) as u8;
        let ops = [0x90, 9, 4, b'R', b'e', b':', b' ', 0x91, 9, rest];
        let d = delta(base.len(), base.len() + 4, &ops);
        let out = apply_delta(base, &d).unwrap();
        assert_eq!(out, b"Subject: Re: [ext4] regression\n\nbody text here\n");
    }

    #[test]
    fn a_damaged_delta_is_an_error_not_a_panic() {
        let base = b"0123456789";
        // base size lies
        assert!(apply_delta(base, &delta(11, 4, &[0x90, 4])).is_err());
        // copy beyond the base
        assert_eq!(
            apply_delta(base, &delta(10, 4, &[0x91, 8, 4])),
            Err("copy outside the base")
        );
        // insert longer than the data left
        assert!(apply_delta(base, &delta(10, 5, &[5, b'a'])).is_err());
        // result longer than stated
        assert!(apply_delta(base, &delta(10, 2, &[0x90, 4])).is_err());
        // shorter than stated
        assert!(apply_delta(base, &delta(10, 9, &[0x90, 4])).is_err());
        // opcode 0
        assert!(apply_delta(base, &delta(10, 0, &[0])).is_err());
        // truncated header
        assert!(apply_delta(base, &[0x80]).is_err());
    }

    #[test]
    fn hostile_deltas_are_errors_not_panics() {
        let base = b"0123456789";
        let e = |d: &[u8]| apply_delta(base, d).unwrap_err();
        // Copies out of range: past the end, an offset far beyond the base,
        // the largest offset and length the encoding holds, and a copy of
        // length 0 (which means 0x10000) from a 10-byte base.
        assert_eq!(e(&delta(10, 4, &[0x91, 7, 4])), "copy outside the base");
        assert_eq!(e(&delta(10, 4, &[0x98, 0xff, 4])), "copy outside the base");
        assert_eq!(
            e(&delta(
                10,
                4,
                &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
            )),
            "copy outside the base"
        );
        assert_eq!(e(&delta(10, 4, &[0x80])), "copy outside the base");
        // Size mismatches: the base's, and the result's either way (a result
        // longer than stated stops before it grows past the stated size).
        assert_eq!(
            e(&delta(9, 4, &[0x90, 4])),
            "delta base size does not match its base"
        );
        assert_eq!(
            e(&delta(10, 3, &[0x90, 4])),
            "delta result longer than stated"
        );
        assert_eq!(
            e(&delta(10, 1, &[2, b'a', b'b'])),
            "delta result longer than stated"
        );
        assert_eq!(
            e(&delta(10, 5, &[0x90, 4])),
            "delta result shorter than stated"
        );
        assert_eq!(e(&delta(10, 1, &[])), "delta result shorter than stated");
        // A result over MAX_OBJECT is refused before anything is allocated.
        let huge = MAX_OBJECT as usize + 1;
        assert_eq!(e(&delta(10, huge, &[0x90, 4])), "delta result too large");
        // Truncated varints: the base size, the result size, a copy's
        // offset and length bytes, an insert's data.
        assert_eq!(e(&[]), "truncated delta header");
        assert_eq!(e(&[0x8a]), "truncated delta header");
        assert_eq!(e(&[0x0a, 0x84]), "truncated delta header");
        assert_eq!(e(&delta(10, 4, &[0x91, 2])), "truncated copy");
        assert_eq!(e(&delta(10, 4, &[0x93])), "truncated copy");
        assert_eq!(e(&delta(10, 4, &[4, b'a', b'b'])), "truncated insert");
        // A varint with bits beyond 64 (2^64 would read as 0 if they were
        // dropped) and one of eleven bytes.
        let mut over = vec![0x80; 9];
        over.push(0x02);
        assert_eq!(apply_delta(b"", &over), Err("truncated delta header"));
        let mut long = vec![0x80; 10];
        long.push(0x00);
        assert_eq!(apply_delta(b"", &long), Err("truncated delta header"));
        // Opcode 0 (an insert of 0 bytes) is reserved, wherever it comes.
        assert_eq!(e(&delta(10, 0, &[0])), "reserved delta opcode 0");
        assert_eq!(e(&delta(10, 2, &[0x90, 2, 0])), "reserved delta opcode 0");
        // The edges that are valid: an empty result, a whole-base copy
        // with offset and length bytes left out, and a copy ending at the
        // base's last byte.
        assert_eq!(apply_delta(base, &delta(10, 0, &[])).unwrap(), b"");
        assert_eq!(
            apply_delta(base, &delta(10, 10, &[0x90, 10])).unwrap(),
            base
        );
        assert_eq!(
            apply_delta(base, &delta(10, 3, &[0x91, 7, 3])).unwrap(),
            b"789"
        );
    }

    #[test]
    fn an_entry_must_inflate_to_exactly_its_stated_size() {
        use std::io::Write;
        let text = b"From: a@example.org\nSubject: ext4 regression\n\nbody\n".repeat(20);
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(&text).unwrap();
        let mut stream = z.finish().unwrap();
        let size = text.len() as u64;
        assert_eq!(inflate_entry(&stream, size).unwrap(), text);
        // What follows the stream (the pack's next entry) is not read.
        stream.extend_from_slice(b"the next entry");
        assert_eq!(inflate_entry(&stream, size).unwrap(), text);
        // Stated sizes that lie, either way; a size over MAX_OBJECT is
        // refused before anything is allocated.
        assert!(inflate_entry(&stream, size - 1).is_err());
        assert!(inflate_entry(&stream, size + 1).is_err());
        assert!(
            inflate_entry(&stream, MAX_OBJECT + 1)
                .unwrap_err()
                .contains("over")
        );
        // A stream cut short, damaged, or none at all.
        assert!(inflate_entry(&stream[..stream.len() / 2], size).is_err());
        let mut damaged = stream.clone();
        damaged[5] ^= 0xff;
        damaged[6] ^= 0x55;
        assert!(!inflate_entry(&damaged, size).is_ok_and(|out| out == text));
        assert!(inflate_entry(b"", 0).is_err());
        assert!(inflate_entry(b"not zlib at all", 4).is_err());
    }
}
