//! A JSON value compared structurally, read with exact numbers: what a
//! `json_equals` check expects (read when a case file loads) and what the
//! scorer compares a run's output with.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::collections::BTreeMap;
use std::fmt;

/// Largest integer a JSON number can hold exactly in every common reader.
pub const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// A JSON value compared structurally.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(BTreeMap<String, Json>),
}

fn checked_number<E: de::Error>(v: f64) -> Result<Json, E> {
    if !v.is_finite() {
        return Err(E::custom("numbers must be finite"));
    }
    if v.abs() > MAX_SAFE_INTEGER {
        return Err(E::custom(format!(
            "number {v} is beyond ±9007199254740991 and cannot be compared exactly"
        )));
    }
    Ok(Json::Num(v))
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Json;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_unit<E>(self) -> Result<Json, E> {
                Ok(Json::Null)
            }
            fn visit_none<E>(self) -> Result<Json, E> {
                Ok(Json::Null)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Json, D::Error> {
                Json::deserialize(d)
            }
            fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
                Ok(Json::Bool(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Json, E> {
                if v > MAX_SAFE_INTEGER as u64 {
                    return Err(E::custom(format!(
                        "integer {v} is beyond ±9007199254740991 and cannot be compared exactly"
                    )));
                }
                Ok(Json::Num(v as f64))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Json, E> {
                if v.unsigned_abs() > MAX_SAFE_INTEGER as u64 {
                    return Err(E::custom(format!(
                        "integer {v} is beyond ±9007199254740991 and cannot be compared exactly"
                    )));
                }
                Ok(Json::Num(v as f64))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Json, E> {
                checked_number(v)
            }
            fn visit_str<E>(self, v: &str) -> Result<Json, E> {
                Ok(Json::Str(v.to_string()))
            }
            fn visit_string<E>(self, v: String) -> Result<Json, E> {
                Ok(Json::Str(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Json, A::Error> {
                let mut v = Vec::new();
                while let Some(x) = a.next_element()? {
                    v.push(x);
                }
                Ok(Json::Arr(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Json, A::Error> {
                let mut m = BTreeMap::new();
                while let Some(k) = a.next_key::<String>()? {
                    let v: Json = a.next_value()?;
                    if m.contains_key(&k) {
                        return Err(de::Error::custom(format!("duplicate key `{k}`")));
                    }
                    m.insert(k, v);
                }
                Ok(Json::Obj(m))
            }
        }
        d.deserialize_any(V)
    }
}
