//! Response compression: gzip or Brotli as the client's `Accept-Encoding` asks (identity when
//! it asks for neither), for bodies of 1 KiB or more of a textual type. Pure Rust encoders
//! (flate2 on miniz_oxide, the `brotli` crate): nothing in the build needs a C library.
//!
//! A whole body is encoded at once (in place up to [`INLINE_LIMIT`], larger ones on the blocking
//! pool); a streamed one (a `format=ndjson` export) through actix's encoder, which flushes
//! whenever the producer pauses, so every line still arrives as it is written. Live streams
//! (Server-Sent Events, a stream bot's lines) are marked [`arena::http::Unencoded`] and sent as
//! they are, like 204/304 answers, HEAD answers and bodies under 1 KiB.
//!
//! A strong `ETag` names one representation: an encoded answer's tag gets the coding as a
//! suffix inside the quotes (`"…-br"`), and `If-None-Match` compares tags without it.

use actix_web::body::{BodySize, BoxBody, MessageBody};
use actix_web::http::StatusCode;
use actix_web::http::header::{
    CONTENT_ENCODING, CONTENT_TYPE, ContentEncoding, ETAG, HeaderMap, HeaderValue, VARY,
};
use std::io::Write as _;

/// Bodies smaller than this are sent as they are: the encoding would save less than it costs.
pub const MIN_SIZE: usize = 1024;
/// Bodies up to this size are encoded on the request's worker thread (well under a
/// millisecond); larger ones on the blocking pool.
const INLINE_LIMIT: usize = 64 * 1024;
/// gzip's level: the default, 6. A finished four-player twenty_two match (63 KB) comes out at
/// about 9% of its size (level 1: 13%).
const GZIP_LEVEL: u32 = 6;
/// Brotli's quality: 5 compresses JSON better than gzip's level 9 at about gzip's speed (the
/// higher ones cost many times more CPU for a few percent).
const BROTLI_QUALITY: u32 = 5;
/// Brotli's window: 4 MiB, more than any answer.
const BROTLI_WINDOW: u32 = 22;

/// A content coding the server produces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coding {
    /// `br`.
    Brotli,
    /// `gzip`.
    Gzip,
}

impl Coding {
    fn name(self) -> &'static str {
        match self {
            Coding::Brotli => "br",
            Coding::Gzip => "gzip",
        }
    }

    fn actix(self) -> ContentEncoding {
        match self {
            Coding::Brotli => ContentEncoding::Brotli,
            Coding::Gzip => ContentEncoding::Gzip,
        }
    }
}

/// The coding an `Accept-Encoding` value asks for: the acceptable one of highest quality,
/// Brotli before gzip at equal quality (`*` stands for both); None for identity.
pub fn negotiate(accept: Option<&HeaderValue>) -> Option<Coding> {
    let accept = accept?.to_str().ok()?;
    let (mut brotli, mut gzip, mut any) = (None::<f32>, None::<f32>, None::<f32>);
    for item in accept.split(',') {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or("").trim();
        let quality = parts
            .filter_map(|p| p.trim().strip_prefix("q="))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        if name.eq_ignore_ascii_case("br") {
            brotli = Some(quality);
        } else if name.eq_ignore_ascii_case("gzip") || name.eq_ignore_ascii_case("x-gzip") {
            gzip = Some(quality);
        } else if name == "*" {
            any = Some(quality);
        }
    }
    let brotli = brotli.or(any).unwrap_or(0.0);
    let gzip = gzip.or(any).unwrap_or(0.0);
    if brotli <= 0.0 && gzip <= 0.0 {
        None
    } else if brotli >= gzip {
        Some(Coding::Brotli)
    } else {
        Some(Coding::Gzip)
    }
}

/// True if an answer of this status, headers and size would be encoded for a client that asks
/// (so its representation varies with `Accept-Encoding`).
pub fn compressible(status: StatusCode, headers: &HeaderMap, size: BodySize) -> bool {
    let sized = match size {
        BodySize::Sized(n) => n >= MIN_SIZE as u64,
        BodySize::Stream => true,
        BodySize::None => false,
    };
    sized
        && status != StatusCode::NO_CONTENT
        && status != StatusCode::NOT_MODIFIED
        && status != StatusCode::PARTIAL_CONTENT
        && !status.is_informational()
        && !headers.contains_key(CONTENT_ENCODING)
        && headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(textual)
}

/// Types worth compressing: text, JSON (and `+json`), NDJSON, JavaScript, OpenMetrics, SVG; not
/// a live event stream.
fn textual(content_type: &str) -> bool {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    if essence == "text/event-stream" {
        return false;
    }
    essence.starts_with("text/")
        || essence.ends_with("+json")
        || matches!(
            essence.as_str(),
            "application/json"
                | "application/x-ndjson"
                | "application/javascript"
                | "application/openmetrics-text"
                | "image/svg+xml"
        )
}

/// The strong `ETag` of the representation in `coding`: the coding as a suffix inside the
/// quotes. A weak tag is left as it is.
pub fn coded_etag(etag: &HeaderValue, coding: Coding) -> HeaderValue {
    match etag.to_str() {
        Ok(tag) if tag.len() >= 2 && tag.starts_with('"') && tag.ends_with('"') => {
            HeaderValue::from_str(&format!("{}-{}\"", &tag[..tag.len() - 1], coding.name()))
                .unwrap_or_else(|_| etag.clone())
        }
        _ => etag.clone(),
    }
}

/// The tag an entity tag of a request names, without `W/` and without a coding suffix.
fn base_tag(tag: &str) -> &str {
    let tag = tag.trim();
    let tag = tag.strip_prefix("W/").unwrap_or(tag);
    let inner = tag.trim_matches('"');
    inner
        .strip_suffix("-br")
        .or_else(|| inner.strip_suffix("-gzip"))
        .unwrap_or(inner)
}

/// True if `If-None-Match` (a list of entity tags, or `*`) names the answer's `etag` (weak
/// comparison, as RFC 9110 wants for `If-None-Match`, whatever the coding).
pub fn none_match_hits(if_none_match: &HeaderValue, etag: &HeaderValue) -> bool {
    let (Ok(list), Ok(etag)) = (if_none_match.to_str(), etag.to_str()) else {
        return false;
    };
    let current = base_tag(etag);
    list.split(',')
        .any(|tag| tag.trim() == "*" || base_tag(tag) == current)
}

/// Marks `headers` as varying with `Accept-Encoding`.
pub fn add_vary(headers: &mut HeaderMap) {
    headers.append(VARY, HeaderValue::from_static("accept-encoding"));
}

/// Encodes `body` in `coding`, setting `Content-Encoding` and the coded `ETag` in `headers`.
pub async fn encode(body: BoxBody, headers: &mut HeaderMap, coding: Coding) -> BoxBody {
    headers.insert(CONTENT_ENCODING, HeaderValue::from_static(coding.name()));
    if let Some(etag) = headers.get(ETAG) {
        let coded = coded_etag(etag, coding);
        headers.insert(ETAG, coded);
    }
    match body.try_into_bytes() {
        Ok(bytes) if bytes.len() <= INLINE_LIMIT => BoxBody::new(compress(&bytes, coding)),
        Ok(bytes) => {
            let encoded =
                actix_web::rt::task::spawn_blocking(move || compress(&bytes, coding)).await;
            match encoded {
                Ok(encoded) => BoxBody::new(encoded),
                // The pool is gone (shutting down): nothing sensible to send.
                Err(_) => BoxBody::new(Vec::<u8>::new()),
            }
        }
        Err(stream) => {
            let mut head = actix_web::dev::ResponseHead::new(StatusCode::OK);
            // actix's encoder flushes whenever the stream pauses: every line still arrives
            // when it is written. The head it is given only receives headers already set.
            BoxBody::new(actix_http::encoding::Encoder::response(
                coding.actix(),
                &mut head,
                stream,
            ))
        }
    }
}

/// `bytes` compressed in one go.
pub fn compress(bytes: &[u8], coding: Coding) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() / 4 + 64);
    match coding {
        Coding::Gzip => {
            let mut encoder =
                flate2::write::GzEncoder::new(out, flate2::Compression::new(GZIP_LEVEL));
            // Writing to a Vec cannot fail.
            let _ = encoder.write_all(bytes);
            out = encoder.finish().unwrap_or_default();
        }
        Coding::Brotli => {
            let mut encoder =
                brotli::CompressorWriter::new(&mut out, 4096, BROTLI_QUALITY, BROTLI_WINDOW);
            let _ = encoder.write_all(bytes);
            drop(encoder);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str) -> HeaderValue {
        HeaderValue::from_str(text).expect("header")
    }

    #[test]
    fn the_coding_follows_accept_encoding() {
        assert_eq!(negotiate(None), None);
        assert_eq!(negotiate(Some(&value("identity"))), None);
        assert_eq!(negotiate(Some(&value("gzip, deflate"))), Some(Coding::Gzip));
        assert_eq!(
            negotiate(Some(&value("gzip, deflate, br"))),
            Some(Coding::Brotli)
        );
        assert_eq!(
            negotiate(Some(&value("br;q=0.5, gzip"))),
            Some(Coding::Gzip)
        );
        assert_eq!(negotiate(Some(&value("br;q=0, gzip;q=0"))), None);
        assert_eq!(negotiate(Some(&value("*"))), Some(Coding::Brotli));
        assert_eq!(negotiate(Some(&value("*;q=0.1, gzip"))), Some(Coding::Gzip));
    }

    #[test]
    fn textual_bodies_of_a_kilobyte_are_compressible() {
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, value("application/json"));
        let ok = StatusCode::OK;
        assert!(compressible(ok, &headers, BodySize::Sized(1024)));
        assert!(!compressible(ok, &headers, BodySize::Sized(1023)));
        assert!(compressible(ok, &headers, BodySize::Stream));
        assert!(!compressible(
            StatusCode::NOT_MODIFIED,
            &headers,
            BodySize::Sized(4096)
        ));
        headers.insert(CONTENT_TYPE, value("text/event-stream"));
        assert!(!compressible(ok, &headers, BodySize::Stream));
        headers.insert(CONTENT_TYPE, value("image/png"));
        assert!(!compressible(ok, &headers, BodySize::Sized(4096)));
        for kind in [
            "text/css; charset=utf-8",
            "application/problem+json",
            "application/x-ndjson",
        ] {
            headers.insert(CONTENT_TYPE, value(kind));
            assert!(compressible(ok, &headers, BodySize::Sized(4096)), "{kind}");
        }
    }

    #[test]
    fn tags_match_whatever_their_coding_and_strength() {
        let etag = value("\"abc\"");
        assert_eq!(coded_etag(&etag, Coding::Brotli), value("\"abc-br\""));
        assert_eq!(
            coded_etag(&value("W/\"x\""), Coding::Gzip),
            value("W/\"x\"")
        );
        for hit in [
            "\"abc\"",
            "\"abc-gzip\"",
            "W/\"abc-br\"",
            "\"zzz\", \"abc\"",
            "*",
        ] {
            assert!(none_match_hits(&value(hit), &etag), "{hit}");
            assert!(none_match_hits(&value(hit), &value("\"abc-br\"")), "{hit}");
        }
        assert!(!none_match_hits(&value("\"abd\""), &etag));
    }

    #[test]
    fn both_codings_give_the_bytes_back() {
        use std::io::Read as _;
        let text = "{\"moves\": [".to_string()
            + &"{\"seat\": 1, \"action\": {\"type\": \"play\"}},".repeat(200)
            + "]}";
        let mut back = String::new();
        flate2::read::GzDecoder::new(&compress(text.as_bytes(), Coding::Gzip)[..])
            .read_to_string(&mut back)
            .expect("gunzip");
        assert_eq!(back, text);
        let mut back = String::new();
        brotli::Decompressor::new(&compress(text.as_bytes(), Coding::Brotli)[..], 4096)
            .read_to_string(&mut back)
            .expect("unbrotli");
        assert_eq!(back, text);
    }
}
