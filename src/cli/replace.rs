//! Safe replacement of an output file: what `fmt` and `simulate --out`
//! write goes to a new file beside the old one, which takes the old one's
//! place in one rename only once every byte is on disk.
//!
//! The new file is created with `O_CREAT|O_EXCL` under a name no one can
//! guess, so a link planted in the folder is never followed; it gets the
//! old file's mode (and owner and group where the user may set them) and
//! is synced before the rename. A full disk or an interrupted run leaves
//! the old file as it was. A symbolic link or a file with several hard
//! links is refused unless the user says `--follow-symlinks`: replacing it
//! would cut the link.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A new file that will replace `target` on [`Replacement::commit`]; the
/// new file is removed if it is dropped uncommitted.
pub struct Replacement {
    target: PathBuf,
    tmp: PathBuf,
    file: Option<BufWriter<File>>,
    /// The old file's metadata, to carry over.
    old: Option<std::fs::Metadata>,
}

/// Why a file may not be replaced.
fn refuse(path: &Path, why: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{} {why}", path.display()),
    )
}

impl Replacement {
    /// Starts replacing `path` (which need not exist yet). With `follow`, a
    /// symbolic link is followed (the file it names is replaced and the
    /// link stays) and a hard-linked file is replaced under this name only.
    pub fn create(path: &Path, follow: bool) -> io::Result<Replacement> {
        let mut target = path.to_path_buf();
        let old = match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => {
                if !follow {
                    return Err(refuse(
                        path,
                        "is a symbolic link: not replaced (--follow-symlinks replaces the file it names)",
                    ));
                }
                target = std::fs::canonicalize(path)?;
                Some(std::fs::metadata(&target)?)
            }
            Ok(m) => Some(m),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        if let Some(m) = &old {
            if !m.file_type().is_file() {
                return Err(refuse(path, "is not a regular file: not replaced"));
            }
            if links(m) > 1 && !follow {
                return Err(refuse(
                    path,
                    "has other hard links: not replaced (--follow-symlinks replaces it under this name only)",
                ));
            }
        }
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let stem = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut attempts = 0;
        loop {
            let tmp = dir.join(format!(".{stem}.{:016x}.tmp", rand::random::<u64>()));
            let mut options = std::fs::OpenOptions::new();
            // create_new is O_CREAT|O_EXCL: an existing name, a planted
            // symbolic link included, fails instead of being opened.
            options.write(true).create_new(true);
            #[cfg(unix)]
            {
                // Private until it gets the old file's mode; a new file
                // keeps what a plain create gives (0666 less the umask).
                use std::os::unix::fs::OpenOptionsExt;
                options.mode(if old.is_some() { 0o600 } else { 0o666 });
            }
            match options.open(&tmp) {
                Ok(f) => {
                    return Ok(Replacement {
                        target,
                        tmp,
                        file: Some(BufWriter::with_capacity(1 << 16, f)),
                        old,
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempts < 16 => {
                    attempts += 1;
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Where to write the new content.
    pub fn writer(&mut self) -> &mut BufWriter<File> {
        self.file
            .as_mut()
            .expect("a replacement is written before it is committed")
    }

    /// Puts the new file in the old one's place: flushed, given the old
    /// file's mode (owner and group where permitted), synced, renamed, and
    /// the folder synced so that the rename itself survives a crash.
    pub fn commit(mut self) -> io::Result<()> {
        let file = self
            .file
            .take()
            .expect("a replacement is committed once")
            .into_inner()
            .map_err(|e| e.into_error())?;
        carry_over(&file, self.old.as_ref())?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&self.tmp, &self.target)?;
        if let Some(dir) = self.target.parent().filter(|d| !d.as_os_str().is_empty()) {
            // Not every system can sync a folder; the data is synced already.
            let _ = File::open(dir).and_then(|d| d.sync_all());
        }
        Ok(())
    }
}

impl Drop for Replacement {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

#[cfg(unix)]
fn links(m: &std::fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(m)
}

#[cfg(not(unix))]
fn links(_: &std::fs::Metadata) -> u64 {
    1
}

/// The old file's owner, group and mode onto the new one.
#[cfg(unix)]
fn carry_over(file: &File, old: Option<&std::fs::Metadata>) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let Some(m) = old else {
        return Ok(());
    };
    // Only root may give a file away, and a group may be set only to one
    // the user belongs to: where that is refused, the new file stays the
    // writer's. Owner first: a change of owner clears set-id bits.
    let _ = std::os::unix::fs::fchown(file, Some(m.uid()), Some(m.gid()));
    file.set_permissions(std::fs::Permissions::from_mode(m.mode() & 0o7777))
}

#[cfg(not(unix))]
fn carry_over(file: &File, old: Option<&std::fs::Metadata>) -> io::Result<()> {
    match old {
        Some(m) => file.set_permissions(m.permissions()),
        None => Ok(()),
    }
}

/// Writes through `write` into a replacement of `path`: the one call that
/// `fmt` and `simulate --out` make.
pub fn replace_with(
    path: &Path,
    follow: bool,
    write: impl FnOnce(&mut BufWriter<File>) -> io::Result<()>,
) -> io::Result<()> {
    let mut r = Replacement::create(path, follow)?;
    write(r.writer())?;
    r.writer().flush()?;
    r.commit()
}
