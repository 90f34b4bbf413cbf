//! A PostgreSQL cluster of a test's own (initdb + pg_ctl on 127.0.0.1 and a free port), which
//! the test may stop and start again: what the shared server of `DATABASE_URL` must never be
//! made to do. As `.ci/postgres.sh` does, a root test runs the server as `postgres`.

use std::path::PathBuf;
use std::process::Command;

/// A throwaway cluster, stopped and deleted when dropped.
pub struct Cluster {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    /// `postgres://postgres@127.0.0.1:<port>/postgres`.
    pub url: String,
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

impl Cluster {
    /// Starts a new cluster, or returns None (with a printed line) when PostgreSQL's server
    /// binaries are not installed (`apt-get install -y postgresql`).
    pub fn start(test: &str) -> Option<Cluster> {
        let bin = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .filter_map(|entry| entry.ok().map(|e| e.path().join("bin")))
            .filter(|bin| bin.join("initdb").exists())
            .max();
        let Some(bin) = bin else {
            eprintln!("{test}: PostgreSQL's server binaries are not installed: not tested");
            return None;
        };
        let dir = std::env::temp_dir().join(format!(
            "cardroom-cluster-{:012x}",
            rand::random::<u64>() >> 16
        ));
        std::fs::create_dir_all(&dir).expect("cluster folder");
        if is_root() {
            crate::support::run(
                Command::new("chown").arg("postgres").arg(&dir),
                "chown the cluster folder",
            );
        }
        let port = crate::support::free_port();
        let cluster = Cluster {
            url: format!("postgres://postgres@127.0.0.1:{port}/postgres"),
            bin,
            dir,
            port,
        };
        cluster.as_postgres(&format!(
            "{}/initdb -D {}/data -U postgres --auth=trust >{}/initdb.log 2>&1",
            cluster.bin.display(),
            cluster.dir.display(),
            cluster.dir.display()
        ));
        cluster.resume();
        Some(cluster)
    }

    /// Runs `script` with `sh` as the `postgres` user (as this user when not root).
    fn as_postgres(&self, script: &str) {
        let mut command = if is_root() {
            let mut su = Command::new("su");
            su.args(["postgres", "-s", "/bin/sh", "-c", script]);
            su
        } else {
            let mut sh = Command::new("sh");
            sh.args(["-c", script]);
            sh
        };
        crate::support::run(&mut command, script);
    }

    /// Starts the server (again), waiting until it accepts connections.
    pub fn resume(&self) {
        self.as_postgres(&format!(
            "{}/pg_ctl -D {dir}/data -w -l {dir}/pg.log -o '-p {} -k {dir} -c listen_addresses=127.0.0.1' start >/dev/null",
            self.bin.display(),
            self.port,
            dir = self.dir.display(),
        ));
    }

    /// Stops the server (fast shutdown: connections are closed), waiting until it is down.
    pub fn halt(&self) {
        self.as_postgres(&format!(
            "{}/pg_ctl -D {}/data -w -m fast stop >/dev/null",
            self.bin.display(),
            self.dir.display()
        ));
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let stop = format!(
            "{}/pg_ctl -D {}/data -m immediate stop >/dev/null 2>&1; true",
            self.bin.display(),
            self.dir.display()
        );
        self.as_postgres(&stop);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
