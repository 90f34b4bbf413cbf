//! Strict query strings: a parameter a route does not declare is refused (400
//! `invalid_request` naming it and the ones the route takes), so a misspelt filter
//! (`?statu=finished`) is never silently ignored. A route's parameters are the fields of its
//! query type: declaring one more is one more field.

use crate::problem::ServiceError;
use serde::de::{self, DeserializeOwned, Deserializer, Visitor};

/// The query of a route that takes no parameter.
#[derive(Debug, Clone, Copy, Default, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NoQuery {}

/// The query string of `request` as a `T`: 400 `invalid_request` for a parameter `T` does not
/// declare, or a value that does not parse.
pub fn query<T: DeserializeOwned>(request: &actix_web::HttpRequest) -> Result<T, ServiceError> {
    parse::<T>(request.query_string())
}

/// [`query`] of a query string.
pub fn parse<T: DeserializeOwned>(text: &str) -> Result<T, ServiceError> {
    let invalid = |e: &dyn std::fmt::Display| ServiceError::invalid(format!("invalid query: {e}"));
    if let Some(declared) = declared_fields::<T>() {
        let pairs = actix_web::web::Query::<Vec<(String, String)>>::from_query(text)
            .map_err(|e| invalid(&e))?
            .into_inner();
        let mut unknown: Vec<&str> = Vec::new();
        for (name, _) in &pairs {
            if !declared.contains(&name.as_str()) && !unknown.contains(&name.as_str()) {
                unknown.push(name);
            }
        }
        if !unknown.is_empty() {
            let takes = if declared.is_empty() {
                "this route takes no query parameter".to_string()
            } else {
                format!("this route takes {}", quoted(declared))
            };
            let noun = if unknown.len() == 1 {
                "parameter"
            } else {
                "parameters"
            };
            return Err(ServiceError::invalid(format!(
                "unknown query {noun} {}: {takes}",
                quoted(&unknown)
            )));
        }
    }
    actix_web::web::Query::<T>::from_query(text)
        .map(actix_web::web::Query::into_inner)
        .map_err(|e| invalid(&e))
}

fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The field names a struct's `Deserialize` asks for (serde hands them to
/// `deserialize_struct`); None for a type that is not a plain struct (a map, a flattened struct),
/// whose parameters are then not checked.
fn declared_fields<T: DeserializeOwned>() -> Option<&'static [&'static str]> {
    let mut fields = None;
    let _ = T::deserialize(FieldProbe(&mut fields));
    fields
}

/// A deserializer that only records the fields a struct asks for, then fails.
struct FieldProbe<'a>(&'a mut Option<&'static [&'static str]>);

impl<'de> Deserializer<'de> for FieldProbe<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("not a struct"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = Some(fields);
        Err(de::Error::custom("fields recorded"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::ErrorCode;

    #[derive(Debug, serde::Deserialize, PartialEq)]
    struct Filters {
        game: Option<String>,
        limit: Option<u32>,
    }

    #[test]
    fn declared_parameters_parse_and_others_are_named_in_the_refusal() {
        assert_eq!(
            parse::<Filters>("game=basra&limit=5").expect("parses"),
            Filters {
                game: Some("basra".into()),
                limit: Some(5)
            }
        );
        assert_eq!(
            parse::<Filters>("").expect("empty"),
            Filters {
                game: None,
                limit: None
            }
        );
        let refused = parse::<Filters>("statu=finished&game=basra&colour=red").unwrap_err();
        assert_eq!(refused.code, ErrorCode::InvalidRequest);
        assert!(
            refused.detail.contains("`statu`, `colour`")
                && refused.detail.contains("`game`, `limit`"),
            "{}",
            refused.detail
        );
        let refused = parse::<NoQuery>("x=1").unwrap_err();
        assert!(
            refused.detail.contains("takes no query parameter"),
            "{}",
            refused.detail
        );
        assert!(parse::<NoQuery>("").is_ok());
        let bad = parse::<Filters>("limit=many").unwrap_err();
        assert_eq!(bad.code, ErrorCode::InvalidRequest);
    }
}
