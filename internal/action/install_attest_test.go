package action_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestInstallChecksTheBinarysAttestation: where gh is installed, the step verifies the
// downloaded binary's artifact attestation against the action's repository before it
// installs it, and says so.
func TestInstallChecksTheBinarysAttestation(t *testing.T) {
	t.Parallel()
	rel := newRelease("v1.2.3", map[string][]byte{"clarify_linux_amd64": linuxBinary})
	run := runInstall(t, serve(t, rel), "v1.2.3")
	if run.code != 0 || !bytes.Equal(run.installed(t), linuxBinary) {
		t.Fatalf("exit %d; log:\n%s", run.code, run.out)
	}
	fields := strings.Fields(run.gh)
	if len(fields) != 5 || strings.Join(fields[:2], " ") != "attestation verify" || filepath.Base(fields[2]) != "clarify_linux_amd64" ||
		strings.Join(fields[3:], " ") != "--repo clarify-app/clarify" {
		t.Errorf("gh was asked %q, want attestation verify <the binary> --repo clarify-app/clarify", run.gh)
	}
	if !strings.Contains(run.out, "attested by a workflow of clarify-app/clarify") {
		t.Errorf("the log does not say the binary was attested:\n%s", run.out)
	}
}

// TestInstallRefusesABinaryWhoseAttestationDoesNotVerify: a binary that matches
// checksums.txt but has no attestation of the repository's (a release whose assets and
// checksums were both replaced) fails the step with gh's reason and is never run.
func TestInstallRefusesABinaryWhoseAttestationDoesNotVerify(t *testing.T) {
	t.Parallel()
	rel := newRelease("v1.2.3", map[string][]byte{"clarify_linux_amd64": linuxBinary})
	run := runInstall(t, serve(t, rel), "v1.2.3", "FAKE_GH_REFUSES=no attestations found for subject")
	if run.code == 0 || !strings.Contains(run.out, "::error::clarify_linux_amd64 of v1.2.3 has no attestation of clarify-app/clarify's") ||
		!strings.Contains(run.out, "no attestations found for subject") {
		t.Errorf("exit %d; log:\n%s", run.code, run.out)
	}
	assertNothingInstalled(t, run)
}

// TestInstallWithoutGhSaysOnlyTheChecksumWasChecked: a runner without the GitHub CLI still
// runs the checksum-verified binary, and the step says its attestation was not checked.
func TestInstallWithoutGhSaysOnlyTheChecksumWasChecked(t *testing.T) {
	t.Parallel()
	bin := t.TempDir()
	for _, tool := range []string{"bash", "curl", "awk", "cut", "mktemp", "rm", "mv", "chmod", "sha256sum", "tr"} {
		found, err := exec.LookPath(tool)
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		if err := os.Symlink(found, filepath.Join(bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	rel := newRelease("v1.2.3", map[string][]byte{"clarify_linux_amd64": linuxBinary})
	run := runInstall(t, serve(t, rel), "v1.2.3", "PATH="+bin)
	if run.code != 0 || !bytes.Equal(run.installed(t), linuxBinary) || run.gh != "" {
		t.Fatalf("exit %d, gh asked %q; log:\n%s", run.code, run.gh, run.out)
	}
	if !strings.Contains(run.out, "::notice::gh is not installed on this runner: clarify_linux_amd64 of v1.2.3 is checked against checksums.txt only") {
		t.Errorf("the log does not say the attestation was not checked:\n%s", run.out)
	}
}

// TestAForkAtATagRunsItsOwnRelease: `uses: forker/clarify@v1.2.3` downloads forker/clarify's
// release and checks its attestation against forker/clarify, not clarify-app/clarify's.
func TestAForkAtATagRunsItsOwnRelease(t *testing.T) {
	t.Parallel()
	forked := []byte("#!/bin/sh\necho the fork's clarify\n")
	rel := newRelease("v1.2.3", map[string][]byte{"clarify_linux_amd64": forked})
	rel.repo = "forker/clarify"
	run := runInstallOf(t, serve(t, rel), "forker/clarify", "v1.2.3")
	if run.code != 0 || !bytes.Equal(run.installed(t), forked) {
		t.Fatalf("exit %d, binary %q; log:\n%s", run.code, run.installed(t), run.out)
	}
	if !strings.HasSuffix(strings.TrimSpace(run.gh), "--repo forker/clarify") {
		t.Errorf("gh was asked %q, want the attestation checked against forker/clarify", run.gh)
	}
}

// TestTheReleaseAttestsWhatItPublishesAndKeepsItsTokenToOneStep: the release workflow
// attests every binary it builds before it publishes them, and the extension's release
// token reaches the one step that uses it, not the build.
func TestTheReleaseAttestsWhatItPublishesAndKeepsItsTokenToOneStep(t *testing.T) {
	raw, err := os.ReadFile("../../.github/workflows/release.yml")
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Env  map[string]string `yaml:"env"`
		Jobs map[string]struct {
			Env   map[string]string `yaml:"env"`
			Steps []struct {
				Name, Uses, Run string
				With, Env       map[string]string
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(raw, &wf); err != nil {
		t.Fatal(err)
	}
	job := wf.Jobs["release"]
	if len(wf.Env) != 0 || len(job.Env) != 0 {
		t.Errorf("release.yml sets env for every step (workflow %v, job %v): a secret there reaches the build", wf.Env, job.Env)
	}
	attested, published, withToken := -1, -1, 0
	for i, st := range job.Steps {
		switch {
		case strings.HasPrefix(st.Uses, "actions/attest-build-provenance@"):
			attested = i
			if got := st.With["subject-path"]; !strings.Contains(got, "dist/clarify_*") || !strings.Contains(got, "dist/gh-clarify-*") {
				t.Errorf("the attestation covers %q, want every binary of dist/", got)
			}
		case strings.Contains(st.Run, "gh release create \"$GITHUB_REF_NAME\" --verify-tag"):
			published = i
		}
		for _, v := range st.Env {
			if strings.Contains(v, "secrets.") {
				withToken++
			}
		}
	}
	if attested < 0 || published < attested {
		t.Errorf("the binaries are attested at step %d and published at step %d: want attested first", attested, published)
	}
	if withToken != 1 {
		t.Errorf("%d steps get a secret, want 1: the extension's release", withToken)
	}
}
