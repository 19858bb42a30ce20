use std::path::Path;
use std::time::Instant;
fn lz4_blocks(texts: &[&[u8]]) -> (usize, usize, f64) {
    let mut out = 0;
    let mut inb = 0;
    let mut buf = Vec::new();
    let t = Instant::now();
    for x in texts {
        buf.extend_from_slice(x);
        if buf.len() >= 256 << 10 {
            out += lz4_flex::block::compress_prepend_size(&buf).len();
            inb += buf.len();
            buf.clear();
        }
    }
    if !buf.is_empty() {
        out += lz4_flex::block::compress_prepend_size(&buf).len();
        inb += buf.len();
    }
    (inb, out, t.elapsed().as_secs_f64())
}
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let raws: Vec<_> = regtrack::source::open(Path::new(&path))
        .unwrap()
        .filter_map(Result::ok)
        .collect();
    let mut heads: Vec<Vec<u8>> = Vec::new();
    let mut same_bodies: Vec<Vec<u8>> = Vec::new();
    let mut diff_raw: Vec<Vec<u8>> = Vec::new();
    let mut diff_dec: Vec<Vec<u8>> = Vec::new();
    let mut all_bodies_cur: Vec<Vec<u8>> = Vec::new();
    let mut all_bodies_new: Vec<Vec<u8>> = Vec::new();
    let mut ncrlf = 0;
    let mut ndiff = 0;
    for r in &raws {
        let Ok(m) = regtrack::mail::parse(r) else {
            continue;
        };
        let h = regtrack::mail::copies::header_len(&r.bytes);
        let rest = &r.bytes[h..];
        heads.push(r.bytes[..h].to_vec());
        all_bodies_cur.push(m.body.as_bytes().to_vec());
        if !rest.is_empty() && rest == m.body.as_bytes() {
            same_bodies.push(rest.to_vec());
            all_bodies_new.push(rest.to_vec());
        } else {
            ndiff += 1;
            if rest.windows(2).any(|w| w == b"\r\n") {
                ncrlf += 1;
            }
            diff_raw.push(rest.to_vec());
            diff_dec.push(m.body.as_bytes().to_vec());
            all_bodies_new.push(rest.to_vec());
        }
    }
    fn v(x: &[Vec<u8>]) -> Vec<&[u8]> {
        x.iter().map(|y| y.as_slice()).collect()
    }
    for (name, set) in [
        ("heads", &heads),
        ("same bodies", &same_bodies),
        ("diff raw bodies", &diff_raw),
        ("diff decoded bodies", &diff_dec),
        ("bodies now (decoded)", &all_bodies_cur),
        ("bodies raw-once", &all_bodies_new),
    ] {
        let (i, o, s) = lz4_blocks(&v(set));
        println!(
            "{name:24} n={:6} text {:8.1} MB lz4 {:7.1} MB {:6.0} MB/s",
            set.len(),
            i as f64 / 1e6,
            o as f64 / 1e6,
            i as f64 / 1e6 / s
        );
    }
    println!("non-same {ndiff}, with CRLF {ncrlf}");
    std::fs::write("/tmp/p47/heads.bin", heads.concat()).unwrap();
    std::fs::write("/tmp/p47/bodies.bin", all_bodies_new.concat()).unwrap();
    std::fs::write("/tmp/p47/decoded.bin", all_bodies_cur.concat()).unwrap();
}
