//! The SQLite files' permissions (issue 48): the database, its `-wal` and `-shm`, the process
//! lock and the seal key beside them are readable by their owner only (0600). They hold every
//! running match's seed and cards and the key the bots' signing secrets are sealed under.
//!
//! SQLite creates the `-wal`, `-shm` and `-journal` files with the database file's own mode,
//! so creating the database 0600 is enough for new files; files an older version left readable
//! by others are tightened at start, each with a log line.

use anyhow::Context;
use std::path::{Path, PathBuf};

/// The mode of every file of an arena database.
pub const PRIVATE_MODE: u32 = 0o600;

/// The files of the SQLite database `path` that exist or will: the database, its `-wal`, `-shm`
/// and `-journal`, the process lock and the seal key.
pub fn database_files(path: &Path) -> Vec<PathBuf> {
    ["", "-wal", "-shm", "-journal", ".lock", ".seal-key"]
        .iter()
        .map(|suffix| {
            let mut name = path.as_os_str().to_owned();
            name.push(suffix);
            PathBuf::from(name)
        })
        .collect()
}

/// Creates the database file `path` (empty, mode 0600) if it does not exist yet, so SQLite opens
/// a private file and makes its `-wal` and `-shm` private too; then tightens every file of the
/// database that exists and is open to others.
pub fn make_private(path: &Path) -> anyhow::Result<()> {
    create_private(path)?;
    for file in database_files(path) {
        tighten(&file)?;
    }
    Ok(())
}

/// Creates an empty file at `path` with mode 0600 unless a file is there already. Returns
/// whether it made one.
pub fn create_private(path: &Path) -> anyhow::Result<bool> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, PRIVATE_MODE);
    match options.open(path) {
        Ok(_) => Ok(true),
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(error) => Err(error).with_context(|| format!("creating {}", path.display())),
    }
}

/// Sets `path` to mode 0600 if it exists and group or others may read or write it, saying so in
/// the log. Returns whether it changed the mode.
#[cfg(unix)]
pub fn tighten(path: &Path) -> anyhow::Result<bool> {
    use std::os::unix::fs::PermissionsExt;
    let metadata = match std::fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(error) => return Err(error).with_context(|| format!("reading {}", path.display())),
    };
    let mode = metadata.permissions().mode() & 0o777;
    if mode & 0o077 == 0 {
        return Ok(false);
    }
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(PRIVATE_MODE)).with_context(
        || {
            format!(
                "making {} readable by its owner only (it is {mode:o})",
                path.display()
            )
        },
    )?;
    tracing::warn!(
        path = %path.display(),
        was = format!("{mode:o}"),
        now = format!("{PRIVATE_MODE:o}"),
        "an arena database file was readable by others: tightened to the owner only"
    );
    Ok(true)
}

/// No modes outside Unix.
#[cfg(not(unix))]
pub fn tighten(_path: &Path) -> anyhow::Result<bool> {
    Ok(false)
}
