//! Cursor pagination of the list endpoints. A page is read by keyset (the list's sort key, on an
//! index), never by offset: `next_cursor` holds the key of the page's last item, opaque to
//! clients (base64url of its JSON), and the next page starts below it. A cursor carries only a
//! position in a public list: a forged one reads another position of the same list.

use crate::problem::ServiceError;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The cursor of the position after an item whose sort key is `key`.
pub fn encode<K: Serialize>(key: &K) -> String {
    let json = serde_json::to_vec(key).unwrap_or_default();
    base64_simd::URL_SAFE_NO_PAD.encode_to_string(json)
}

/// The sort key a cursor holds; 400 `invalid_request` for anything that is not one of this
/// list's cursors.
pub fn decode<K: DeserializeOwned>(cursor: &str) -> Result<K, ServiceError> {
    let invalid = || {
        ServiceError::invalid(
            "invalid query: `cursor` is not a cursor of this list (pass `next_cursor` as given)",
        )
    };
    let json = base64_simd::URL_SAFE_NO_PAD
        .decode_to_vec(cursor)
        .map_err(|_| invalid())?;
    serde_json::from_slice(&json).map_err(|_| invalid())
}

/// The sort key of an optional cursor.
pub fn after<K: DeserializeOwned>(cursor: Option<&str>) -> Result<Option<K>, ServiceError> {
    cursor.map(decode).transpose()
}

/// A page's limit: `limit` if given (the route checked it is within 1..=500), else `default`.
pub fn limit(limit: Option<u32>, default: u32) -> u32 {
    limit.unwrap_or(default).clamp(1, 500)
}

/// Cuts rows read with one more than `limit` down to the page, and the cursor of the next page
/// (None when this is the last one).
pub fn page<T, K: Serialize>(
    rows: Vec<T>,
    limit: u32,
    key: impl Fn(&T) -> K,
) -> (Vec<T>, Option<String>) {
    let (rows, next) = cut(rows, limit, key);
    (rows, next.as_ref().map(encode))
}

/// [`page`] with the next page's key itself instead of its cursor.
pub fn cut<T, K>(mut rows: Vec<T>, limit: u32, key: impl Fn(&T) -> K) -> (Vec<T>, Option<K>) {
    if rows.len() <= limit as usize {
        return (rows, None);
    }
    rows.truncate(limit as usize);
    let next = rows.last().map(key);
    (rows, next)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_gives_its_key_back_and_anything_else_is_refused() {
        let key = (1_763_769_600_123_i64, "m_0a4f8c2e6b1d3975".to_string());
        let cursor = encode(&key);
        assert!(
            cursor
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
            "{cursor} is URL-safe"
        );
        assert_eq!(decode::<(i64, String)>(&cursor).expect("decodes"), key);
        for bad in ["", "%%%", "bm90IGpzb24", &encode(&(1, 2, 3))] {
            assert!(decode::<(i64, String)>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_page_is_cut_to_its_limit_with_the_cursor_of_its_last_row() {
        let (rows, next) = page(vec![5, 4, 3], 2, |n| *n);
        assert_eq!(rows, [5, 4]);
        assert_eq!(decode::<i32>(&next.expect("more")).expect("key"), 4);
        let (rows, next) = page(vec![5, 4], 2, |n| *n);
        assert_eq!((rows, next), (vec![5, 4], None));
    }
}
