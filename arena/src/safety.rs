//! Safety of calling arbitrary URLs: which URLs and addresses the arena may connect to.
//!
//! Only `http` and `https` URLs are accepted. Every address a host resolves to is checked against
//! a deny list (loopback, private, shared, link-local including 169.254.169.254, multicast,
//! broadcast, unspecified, documentation, IPv4-mapped and IPv4-compatible forms of all these)
//! unless an operator allow-list admits it. The check happens inside reqwest's DNS resolver
//! ([`CheckedResolver`]), so the connection goes to exactly the addresses that were checked: there
//! is no window for DNS rebinding between the check and the connection.

use ipnet::IpNet;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

/// Which addresses bots may live at.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AddressPolicy {
    /// Admit loopback addresses (local development: `cardroom serve` without `--public`).
    pub allow_loopback: bool,
    /// Networks admitted even though the deny list covers them (operator allow-list).
    pub allow: Vec<IpNet>,
}

/// Why an address or URL is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Not an http or https URL, or no host.
    #[error("{0}")]
    BadUrl(String),
    /// The address is in a denied range.
    #[error("{addr} is a {kind} address, which bots may not use")]
    Denied {
        /// The refused address.
        addr: IpAddr,
        /// The kind of range, e.g. `loopback`, `private`, `link-local`.
        kind: &'static str,
    },
    /// The host name stands for (or resolves to) an address in a denied range.
    #[error("`{host}` resolves to {addr}, a {kind} address, which bots may not use")]
    DeniedName {
        /// The host name as written in the URL.
        host: String,
        /// The refused address.
        addr: IpAddr,
        /// The kind of range.
        kind: &'static str,
    },
}

impl AddressPolicy {
    /// The full deny list with no exception (`--public`).
    pub fn public() -> Self {
        AddressPolicy::default()
    }

    /// Loopback admitted (local development, tests).
    pub fn local() -> Self {
        AddressPolicy {
            allow_loopback: true,
            allow: Vec::new(),
        }
    }

    /// Checks one address: `Ok` if the arena may connect to it.
    pub fn check(&self, addr: IpAddr) -> Result<(), Refusal> {
        if self.allow.iter().any(|net| net.contains(&addr)) {
            return Ok(());
        }
        match denied_kind(addr) {
            None => Ok(()),
            Some("loopback") if self.allow_loopback => Ok(()),
            Some(kind) => Err(Refusal::Denied { addr, kind }),
        }
    }

    /// Checks the form of a bot URL (scheme, host) and, if its host is an address literal, the
    /// address. Names are checked when they are resolved, by [`CheckedResolver`].
    pub fn check_url(&self, url: &str) -> Result<reqwest::Url, Refusal> {
        let parsed = reqwest::Url::parse(url)
            .map_err(|e| Refusal::BadUrl(format!("`{url}` is not a valid URL: {e}")))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(Refusal::BadUrl(format!(
                "`{url}` must use http or https, not `{}`",
                parsed.scheme()
            )));
        }
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return Err(Refusal::BadUrl(format!(
                "`{url}` must not carry credentials"
            )));
        }
        let Some(host) = parsed.host_str().filter(|h| !h.is_empty()) else {
            return Err(Refusal::BadUrl(format!("`{url}` has no host")));
        };
        let literal = host.trim_start_matches('[').trim_end_matches(']');
        if let Ok(addr) = literal.parse::<IpAddr>() {
            self.check(addr)?;
        } else if is_localhost_name(host) {
            self.check_name(host, LOCALHOST)?;
        }
        if parsed.query().is_some() || parsed.fragment().is_some() {
            return Err(Refusal::BadUrl(format!(
                "`{url}` must not have a query or a fragment"
            )));
        }
        Ok(parsed)
    }

    /// Checks an address a host name resolved to, naming the host in the refusal.
    fn check_name(&self, host: &str, addr: IpAddr) -> Result<(), Refusal> {
        self.check(addr).map_err(|refusal| match refusal {
            Refusal::Denied { addr, kind } => Refusal::DeniedName {
                host: host.to_string(),
                addr,
                kind,
            },
            other => other,
        })
    }

    /// Resolves a host name and checks every address it resolves to: the check behind both
    /// [`AddressPolicy::check_resolved`] and [`CheckedResolver`]. `localhost` names stand for the
    /// loopback address whatever the resolver says (RFC 6761), so `localhost.` cannot slip by.
    pub async fn resolve(&self, host: &str, port: u16) -> Result<Vec<SocketAddr>, ResolveError> {
        if is_localhost_name(host) {
            self.check_name(host, LOCALHOST)?;
        }
        let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host, port))
            .await
            .map_err(|e| ResolveError::Lookup(format!("cannot resolve `{host}`: {e}")))?
            .collect();
        if addrs.is_empty() {
            return Err(ResolveError::Lookup(format!(
                "`{host}` resolves to no address"
            )));
        }
        for addr in &addrs {
            self.check_name(host, addr.ip())?;
        }
        Ok(addrs)
    }

    /// Checks a URL already accepted by [`AddressPolicy::check_url`] down to the addresses its
    /// host name resolves to now, so a refused address is reported as a refusal before any
    /// connection is tried. A name that does not resolve is not a refusal (the call will fail
    /// as unreachable); the resolver checks again at connection time.
    pub async fn check_resolved(&self, url: &reqwest::Url) -> Result<(), Refusal> {
        // `domain()` is `None` for address literals, which `check_url` has checked.
        let Some(host) = url.domain() else {
            return Ok(());
        };
        match self
            .resolve(host, url.port_or_known_default().unwrap_or(80))
            .await
        {
            Err(ResolveError::Refused(refusal)) => Err(refusal),
            Ok(_) | Err(ResolveError::Lookup(_)) => Ok(()),
        }
    }
}

/// Why a host name could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// The policy refuses an address of the name.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// The name does not resolve.
    #[error("{0}")]
    Lookup(String),
}

/// The address `localhost` names stand for.
const LOCALHOST: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

/// True for `localhost` and `*.localhost`, with or without the final dot, in any case: names
/// that always mean this machine (RFC 6761 section 6.3).
pub fn is_localhost_name(host: &str) -> bool {
    let host = host.strip_suffix('.').unwrap_or(host).to_ascii_lowercase();
    host == "localhost" || host.ends_with(".localhost")
}

/// The kind of denied range `addr` is in, or `None` if it is a public unicast address.
pub fn denied_kind(addr: IpAddr) -> Option<&'static str> {
    match addr {
        IpAddr::V4(v4) => denied_v4(v4),
        IpAddr::V6(v6) => denied_v6(v6),
    }
}

fn denied_v4(v4: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = v4.octets();
    if v4.is_loopback() {
        Some("loopback")
    } else if v4.is_unspecified() || a == 0 {
        Some("unspecified")
    } else if v4.is_private() {
        Some("private")
    } else if a == 100 && (64..128).contains(&b) {
        Some("shared (carrier-grade NAT)")
    } else if v4.is_link_local() {
        // 169.254.0.0/16, which includes the cloud metadata address 169.254.169.254.
        Some("link-local")
    } else if v4.is_multicast() {
        Some("multicast")
    } else if v4.is_broadcast() || a >= 240 {
        Some("reserved")
    } else if v4.is_documentation() || (a == 198 && (b & 0xfe) == 18) {
        Some("documentation or benchmarking")
    } else if a == 192 && b == 0 && c == 0 {
        Some("IETF protocol assignment")
    } else {
        None
    }
}

fn denied_v6(v6: Ipv6Addr) -> Option<&'static str> {
    if let Some(v4) = v6.to_ipv4_mapped() {
        return denied_v4(v4).map(|_| "IPv4-mapped non-public");
    }
    let segments = v6.segments();
    if v6.is_loopback() {
        Some("loopback")
    } else if v6.is_unspecified() {
        Some("unspecified")
    } else if segments[..6].iter().all(|s| *s == 0) {
        // ::a.b.c.d, the deprecated IPv4-compatible form.
        Some("IPv4-compatible")
    } else if v6.is_multicast() {
        Some("multicast")
    } else if (segments[0] & 0xfe00) == 0xfc00 {
        Some("private (unique local)")
    } else if (segments[0] & 0xffc0) == 0xfe80 || (segments[0] & 0xffc0) == 0xfec0 {
        Some("link-local")
    } else if segments[0] == 0x2001 && segments[1] == 0x0db8 {
        Some("documentation")
    } else if segments[0] == 0x0064 && segments[1] == 0xff9b {
        // NAT64 can reach any IPv4 address, private ones included.
        Some("NAT64")
    } else if segments[0] == 0x2002 {
        // 6to4 embeds an IPv4 address.
        Some("6to4")
    } else {
        None
    }
}

/// A DNS resolver that resolves with the system resolver and then refuses the name unless every
/// address is admitted by the policy. reqwest connects only to the addresses it returns.
#[derive(Debug, Clone)]
pub struct CheckedResolver {
    policy: Arc<AddressPolicy>,
}

impl CheckedResolver {
    /// A resolver enforcing `policy`.
    pub fn new(policy: Arc<AddressPolicy>) -> Self {
        CheckedResolver { policy }
    }
}

impl Resolve for CheckedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let policy = self.policy.clone();
        let host = name.as_str().to_string();
        Box::pin(async move {
            let addrs = policy.resolve(&host, 0).await?;
            Ok(Box::new(addrs.into_iter()) as Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(policy: &AddressPolicy, addr: &str) -> Result<(), &'static str> {
        policy
            .check(addr.parse().expect("test address"))
            .map_err(|e| match e {
                Refusal::Denied { kind, .. } | Refusal::DeniedName { kind, .. } => kind,
                Refusal::BadUrl(_) => "bad url",
            })
    }

    #[test]
    fn every_denied_kind_is_refused_by_the_public_policy() {
        let public = AddressPolicy::public();
        for (addr, kind) in [
            ("127.0.0.1", "loopback"),
            ("127.255.0.9", "loopback"),
            ("::1", "loopback"),
            ("10.1.2.3", "private"),
            ("172.16.0.1", "private"),
            ("192.168.1.1", "private"),
            ("fd00::1", "private (unique local)"),
            ("169.254.169.254", "link-local"),
            ("fe80::1", "link-local"),
            ("224.0.0.1", "multicast"),
            ("ff02::1", "multicast"),
            ("0.0.0.0", "unspecified"),
            ("::", "unspecified"),
            ("::ffff:127.0.0.1", "IPv4-mapped non-public"),
            ("::ffff:169.254.169.254", "IPv4-mapped non-public"),
            ("::ffff:10.0.0.1", "IPv4-mapped non-public"),
            ("::127.0.0.1", "IPv4-compatible"),
            ("100.64.0.1", "shared (carrier-grade NAT)"),
            ("255.255.255.255", "reserved"),
            ("64:ff9b::a00:1", "NAT64"),
        ] {
            assert_eq!(check(&public, addr), Err(kind), "{addr}");
        }
    }

    #[test]
    fn public_addresses_pass() {
        let public = AddressPolicy::public();
        for addr in [
            "93.184.216.34",
            "1.1.1.1",
            "2606:4700:4700::1111",
            "::ffff:8.8.8.8",
        ] {
            assert_eq!(check(&public, addr), Ok(()), "{addr}");
        }
    }

    #[test]
    fn the_local_policy_admits_loopback_only() {
        let local = AddressPolicy::local();
        assert_eq!(check(&local, "127.0.0.1"), Ok(()));
        assert_eq!(check(&local, "::1"), Ok(()));
        assert_eq!(check(&local, "10.0.0.1"), Err("private"));
        assert_eq!(check(&local, "169.254.169.254"), Err("link-local"));
        assert_eq!(
            check(&local, "::ffff:127.0.0.1"),
            Err("IPv4-mapped non-public")
        );
    }

    #[test]
    fn the_allow_list_admits_a_denied_network() {
        let policy = AddressPolicy {
            allow_loopback: false,
            allow: vec!["10.0.0.0/8".parse().expect("net")],
        };
        assert_eq!(check(&policy, "10.9.9.9"), Ok(()));
        assert_eq!(check(&policy, "192.168.0.1"), Err("private"));
    }

    /// Issue 11 item 5: `localhost` names are loopback whatever the resolver says, so the public
    /// policy refuses them by name, with the reason.
    #[test]
    fn localhost_names_with_or_without_the_final_dot_are_refused_as_loopback() {
        let public = AddressPolicy::public();
        for url in [
            "http://localhost/",
            "http://localhost./",
            "http://LOCALHOST:8080/",
            "http://bots.localhost./",
        ] {
            let refusal = public.check_url(url).expect_err(url);
            assert!(
                matches!(
                    refusal,
                    Refusal::DeniedName {
                        kind: "loopback",
                        ..
                    }
                ),
                "{url}: {refusal}"
            );
            assert!(refusal.to_string().contains("loopback"), "{url}");
        }
        assert!(
            AddressPolicy::local()
                .check_url("http://localhost./")
                .is_ok()
        );
        assert!(!is_localhost_name("localhost.example.com"));
        assert!(!is_localhost_name("notlocalhost"));
    }

    #[test]
    fn urls_must_be_http_with_a_host_and_checked_literals() {
        let public = AddressPolicy::public();
        assert!(public.check_url("https://bots.example.com/mine").is_ok());
        assert!(public.check_url("http://93.184.216.34:8080").is_ok());
        for url in [
            "ftp://bots.example.com/",
            "file:///etc/passwd",
            "gopher://x",
            "not a url",
            "http://user:pw@bots.example.com/",
            "http://127.0.0.1:9000/",
            "http://[::1]:9000/",
            "http://169.254.169.254/latest/meta-data",
            "http://[::ffff:7f00:1]/",
            "http://0.0.0.0/",
            "https://bots.example.com/?x=1",
        ] {
            assert!(public.check_url(url).is_err(), "{url}");
        }
    }
}
