//! Fuzz target: the pack reader's own delta application and inflate
//! (`source::pack::apply_delta`, `source::pack::inflate_entry`), the code
//! that decodes every message blob of a public-inbox epoch instead of gix's.
//! The first byte picks what the rest is:
//!
//! - 0: a base and a delta, both arbitrary (the next two bytes say where
//!   they split). `apply_delta` must not panic, and must agree with the
//!   plain decoder written below: both refuse, or both give the same bytes,
//!   never more than the size the delta states nor than `MAX_OBJECT`.
//! - 1: a base and a script. A valid delta is built from the script
//!   (copies of ranges of the base and inserts of the script's bytes, in
//!   each encoding git allows: offset and length bytes left out when zero,
//!   or written anyway; a length of 0x10000 written as none; size fields
//!   padded with empty continuation bytes), together with the target it
//!   stands for. Applying it must give the target, straight and after a
//!   round trip through zlib and `inflate_entry` (what the reader does with
//!   a pack entry); every strict prefix of it must be refused.
//! - 2: an arbitrary zlib stream and a claimed size (two bytes, or one over
//!   `MAX_OBJECT`). `inflate_entry` must not panic, must give exactly the
//!   claimed size when it succeeds, must refuse a size over `MAX_OBJECT`,
//!   and must give what flate2 gives when flate2 decodes the stream too.
//! - 3: arbitrary bytes deflated by flate2 (the level from the next byte),
//!   then followed by other bytes (as the next entry follows in a pack):
//!   `inflate_entry` must give them back with the true size and refuse the
//!   size off by one either way.
#![no_main]

use std::io::Write;

use libfuzzer_sys::fuzz_target;
use regtrack::source::pack::{MAX_OBJECT, apply_delta, inflate_entry};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    match mode % 4 {
        0 => arbitrary_delta(rest),
        1 => built_delta(rest),
        2 => arbitrary_stream(rest),
        _ => deflated(rest),
    }
});

/// `rest` split in two at the point its first two bytes name.
fn split(rest: &[u8]) -> (&[u8], &[u8]) {
    let [a, b, rest @ ..] = rest else {
        return (&[], rest);
    };
    let at = usize::from(u16::from_le_bytes([*a, *b])) % (rest.len() + 1);
    rest.split_at(at)
}

fn arbitrary_delta(rest: &[u8]) {
    let (base, delta) = split(rest);
    let got = apply_delta(base, delta);
    let want = reference_delta(base, delta);
    match (&got, &want) {
        (Ok(out), Some(expected)) => assert_eq!(out, expected, "apply_delta disagrees"),
        (Err(_), None) => {}
        _ => panic!(
            "apply_delta {:?}, the reference {}",
            got.as_ref().map(Vec::len),
            if want.is_some() { "decodes it" } else { "refuses it" }
        ),
    }
    if let Ok(out) = got {
        assert!(out.len() as u64 <= MAX_OBJECT);
    }
}

/// A git delta decoded the plain way, with nothing shared with the code
/// under test: `None` for anything damaged. Sizes are base-128 varints of
/// at most ten bytes whose value fits 64 bits; a copy opcode (high bit set)
/// names its offset (4 bytes) and length (3 bytes) bytes by its low bits,
/// and a length of 0 means 0x10000; opcodes 1-127 insert that many bytes;
/// opcode 0 is reserved. The result must have the stated size, at most
/// `MAX_OBJECT`.
fn reference_delta(base: &[u8], delta: &[u8]) -> Option<Vec<u8>> {
    let mut at = 0;
    let mut byte = || {
        let b = delta.get(at).copied();
        at += 1;
        b
    };
    let mut varint = || -> Option<u64> {
        let mut v: u128 = 0;
        for i in 0..10 {
            let b = byte()?;
            v |= u128::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                return u64::try_from(v).ok();
            }
        }
        None
    };
    let base_size = varint()?;
    let size = varint()?;
    if base_size != base.len() as u64 || size > MAX_OBJECT {
        return None;
    }
    let size = size as usize;
    let mut out = Vec::new();
    while let Some(op) = byte() {
        if op & 0x80 != 0 {
            let mut offset = 0usize;
            for k in 0..4 {
                if op & (1 << k) != 0 {
                    offset |= usize::from(byte()?) << (8 * k);
                }
            }
            let mut len = 0usize;
            for k in 0..3 {
                if op & (0x10 << k) != 0 {
                    len |= usize::from(byte()?) << (8 * k);
                }
            }
            if len == 0 {
                len = 0x10000;
            }
            if offset + len > base.len() {
                return None;
            }
            out.extend_from_slice(&base[offset..offset + len]);
        } else if op != 0 {
            for _ in 0..op {
                out.push(byte()?);
            }
        } else {
            return None;
        }
        if out.len() > size {
            return None;
        }
    }
    (out.len() == size).then_some(out)
}

/// Appends `n` as a delta size field, padded with `pad` empty continuation
/// bytes (git reads them; the value stays the same).
fn push_varint(d: &mut Vec<u8>, mut n: u64, pad: usize) {
    let mut groups = Vec::new();
    loop {
        groups.push((n & 0x7f) as u8);
        n >>= 7;
        if n == 0 {
            break;
        }
    }
    let pad = pad.min(10 - groups.len());
    groups.extend(std::iter::repeat_n(0, pad));
    let last = groups.len() - 1;
    for (i, g) in groups.into_iter().enumerate() {
        d.push(if i < last { g | 0x80 } else { g });
    }
}

fn built_delta(rest: &[u8]) {
    let (base, script) = split(rest);
    let mut ops = Vec::new();
    let mut target = Vec::new();
    let mut s = script.iter().copied();
    while let Some(c) = s.next() {
        if c & 1 == 0 || base.is_empty() {
            // An insert of 1-127 bytes of the script.
            let want = 1 + usize::from(c >> 1) % 127;
            let bytes: Vec<u8> = s.by_ref().take(want).collect();
            if bytes.is_empty() {
                break;
            }
            ops.push(bytes.len() as u8);
            ops.extend_from_slice(&bytes);
            target.extend_from_slice(&bytes);
        } else {
            // A copy of a range of the base, its fields written minimally or
            // in full (bit 1), a length of 0x10000 as no length bytes.
            let mut next = || s.next().unwrap_or(0);
            let offset = usize::from(u16::from_le_bytes([next(), next()])) % base.len();
            let room = base.len() - offset;
            let len = match c & 0x0c {
                0x0c if room >= 0x10000 => 0x10000,
                _ => 1 + usize::from(u16::from_le_bytes([next(), next()])) % room.min(0xffff),
            };
            let full = c & 2 != 0;
            let mut op = 0x80u8;
            let mut fields = Vec::new();
            for k in 0..4 {
                let b = (offset >> (8 * k)) as u8;
                if b != 0 || (full && k < 2) {
                    op |= 1 << k;
                    fields.push(b);
                }
            }
            if len != 0x10000 {
                for k in 0..3 {
                    let b = (len >> (8 * k)) as u8;
                    if b != 0 || (full && k < 2) {
                        op |= 0x10 << k;
                        fields.push(b);
                    }
                }
            }
            ops.push(op);
            ops.extend_from_slice(&fields);
            target.extend_from_slice(&base[offset..offset + len]);
        }
        if target.len() > 1 << 20 {
            break;
        }
    }
    let pad = usize::from(script.first().copied().unwrap_or(0) >> 6);
    let mut delta = Vec::new();
    push_varint(&mut delta, base.len() as u64, pad);
    push_varint(&mut delta, target.len() as u64, pad);
    delta.extend_from_slice(&ops);

    assert_eq!(
        apply_delta(base, &delta).as_deref(),
        Ok(&target[..]),
        "a valid delta"
    );
    assert_eq!(reference_delta(base, &delta).as_deref(), Some(&target[..]));
    // The entry path: the delta deflated into a pack entry, inflated to its
    // stated size, applied.
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    z.write_all(&delta).unwrap();
    let stream = z.finish().unwrap();
    let inflated = inflate_entry(&stream, delta.len() as u64).expect("a valid stream");
    assert_eq!(apply_delta(base, &inflated).as_deref(), Ok(&target[..]));
    // Every op makes at least one byte, so no strict prefix of the delta is
    // one: the last byte cut, and a cut where the script says.
    assert!(apply_delta(base, &delta[..delta.len() - 1]).is_err());
    let cut = usize::from(script.last().copied().unwrap_or(0)) % delta.len();
    assert!(apply_delta(base, &delta[..cut]).is_err(), "prefix of {cut} bytes");
}

fn arbitrary_stream(rest: &[u8]) {
    let [a, b, stream @ ..] = rest else {
        return;
    };
    let size = if a & 0x80 != 0 && b & 0x80 != 0 {
        MAX_OBJECT + u64::from(*a & 0x7f) + 1
    } else {
        u64::from(u16::from_le_bytes([*a, *b]))
    };
    let got = inflate_entry(stream, size);
    if size > MAX_OBJECT {
        assert!(got.is_err(), "a size over MAX_OBJECT");
        return;
    }
    if let Ok(out) = &got {
        assert_eq!(out.len() as u64, size);
        if let Some(want) = reference_inflate(stream, size as usize) {
            assert_eq!(out, &want, "inflate_entry disagrees with flate2");
        }
    }
}

/// The zlib stream at the start of `input` inflated by flate2 (miniz_oxide),
/// when it ends having produced exactly `size` bytes.
fn reference_inflate(input: &[u8], size: usize) -> Option<Vec<u8>> {
    let mut d = flate2::Decompress::new(true);
    let mut out = Vec::with_capacity(size + 1);
    match d.decompress_vec(input, &mut out, flate2::FlushDecompress::Finish) {
        Ok(flate2::Status::StreamEnd) if out.len() == size => Some(out),
        _ => None,
    }
}

fn deflated(rest: &[u8]) {
    let Some((&level, text)) = rest.split_first() else {
        return;
    };
    let mut z = flate2::write::ZlibEncoder::new(
        Vec::new(),
        flate2::Compression::new(u32::from(level % 10)),
    );
    z.write_all(text).unwrap();
    let mut stream = z.finish().unwrap();
    // The next entry of the pack follows the stream.
    stream.extend_from_slice(&text[..text.len().min(64)]);
    let size = text.len() as u64;
    assert_eq!(inflate_entry(&stream, size).as_deref(), Ok(text));
    assert!(inflate_entry(&stream, size + 1).is_err());
    if size > 0 {
        assert!(inflate_entry(&stream, size - 1).is_err());
    }
}
