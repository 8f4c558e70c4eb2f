package agentx

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// AgentX's file-locking protocol (PRD seed 002, "File Locking Protocol"): a writer creates
// FILE.lock with O_CREAT|O_EXCL, holding {pid, timestamp, agent}, writes, and deletes the
// lock; a lock older than 30 seconds was left by a dead process and is removed; a writer
// that finds the lock taken tries 5 times, waiting 200 ms times the attempt.
const (
	lockStale    = 30 * time.Second
	lockAttempts = 5
	lockAgent    = "clarify"
)

// lockWait is the wait after the first failed attempt; tests shorten it.
var lockWait = 200 * time.Millisecond

// WriteFile writes f to path, creating its directory, under AgentX's lock file
// (path+".lock"), so that an AgentX agent writing the same file at the same time neither
// loses its write nor reads half of ours. The file is replaced by a rename, whole.
func WriteFile(path string, f File) error {
	data, err := Marshal(f)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	unlock, err := lock(path)
	if err != nil {
		return err
	}
	defer unlock()
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // gone after the rename; left only by a failure
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// lock takes path's lock file and returns what releases it.
func lock(path string) (unlock func(), err error) {
	name := path + ".lock"
	body, err := json.Marshal(struct {
		PID       int    `json:"pid"`
		Timestamp string `json:"timestamp"`
		Agent     string `json:"agent"`
	}{os.Getpid(), time.Now().UTC().Format("2006-01-02T15:04:05.000Z07:00"), lockAgent})
	if err != nil {
		return nil, err
	}
	for attempt := 1; attempt <= lockAttempts; attempt++ {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, werr := f.Write(body)
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil {
				os.Remove(name)
				return nil, werr
			}
			return func() { os.Remove(name) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if st, serr := os.Stat(name); serr == nil && time.Since(st.ModTime()) > lockStale {
			os.Remove(name) // left by a process that died holding it
			continue
		}
		if attempt < lockAttempts {
			time.Sleep(lockWait * time.Duration(attempt))
		}
	}
	return nil, fmt.Errorf("%s is locked by another writer (%s exists); try again, or remove it if no agent is running", path, name)
}
