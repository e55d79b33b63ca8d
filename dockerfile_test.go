package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// dockerInstruction is one instruction of the Dockerfile, continuation lines
// joined.
type dockerInstruction struct{ op, args string }

func readDockerfile(t *testing.T, name string) []dockerInstruction {
	t.Helper()
	fh, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out []dockerInstruction
	var cur strings.Builder
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if cur.Len() == 0 && (line == "" || strings.HasPrefix(line, "#")) {
			continue
		}
		cont := strings.HasSuffix(line, "\\")
		cur.WriteString(strings.TrimSuffix(line, "\\"))
		cur.WriteByte(' ')
		if cont {
			continue
		}
		op, args, _ := strings.Cut(strings.TrimSpace(cur.String()), " ")
		out = append(out, dockerInstruction{strings.ToUpper(op), strings.TrimSpace(args)})
		cur.Reset()
	}
	return out
}

// TestDockerfileShape checks what the image promises without building it: a
// multi-stage build of a static binary (CGO_ENABLED=0), a final stage on a
// shell-less base (distroless static or scratch) that runs as a numeric
// non-root user, and an exec-form entrypoint (no shell needed to start).
func TestDockerfileShape(t *testing.T) {
	var froms []string
	var final []dockerInstruction
	static := false
	for _, in := range readDockerfile(t, "Dockerfile") {
		switch in.op {
		case "FROM":
			froms = append(froms, in.args)
			final = nil
		case "RUN":
			if strings.Contains(in.args, "CGO_ENABLED=0") && strings.Contains(in.args, "go build") {
				static = true
			}
		}
		final = append(final, in)
	}
	if len(froms) < 2 {
		t.Fatalf("FROM %v: want a multi-stage build", froms)
	}
	if !static {
		t.Error("no RUN builds with CGO_ENABLED=0: the binary would not be static")
	}
	checkFinalStage(t, "Dockerfile", froms[len(froms)-1], final)
}

// TestReleaseDockerfileShape checks Dockerfile.release, the image GoReleaser
// builds from the release binaries (.goreleaser.yaml, dockers_v2): one stage
// that copies the binary built for the platform ($TARGETPLATFORM/tiform) onto
// the same shell-less base as the Dockerfile, as a non-root user.
func TestReleaseDockerfileShape(t *testing.T) {
	ins := readDockerfile(t, "Dockerfile.release")
	var froms []string
	copied := false
	for _, in := range ins {
		switch in.op {
		case "FROM":
			froms = append(froms, in.args)
		case "COPY":
			copied = copied || strings.HasPrefix(in.args, "$TARGETPLATFORM/tiform ")
		}
	}
	if len(froms) != 1 {
		t.Fatalf("FROM %v: want one stage (the binaries are built by GoReleaser)", froms)
	}
	if !copied {
		t.Error("no COPY $TARGETPLATFORM/tiform: the image would not hold the binary built for its platform")
	}
	checkFinalStage(t, "Dockerfile.release", froms[0], ins)
}

// checkFinalStage checks an image's last stage: a shell-less base, no RUN,
// a numeric non-root user, an exec-form entrypoint.
func checkFinalStage(t *testing.T, file, base string, final []dockerInstruction) {
	t.Helper()
	if !strings.HasPrefix(base, "scratch") && !strings.HasPrefix(base, "gcr.io/distroless/static") {
		t.Errorf("%s: final stage FROM %s: want scratch or gcr.io/distroless/static (no shell)", file, base)
	}
	var user, entry string
	for _, in := range final {
		switch in.op {
		case "USER":
			user = in.args
		case "ENTRYPOINT":
			entry = in.args
		case "RUN":
			t.Errorf("%s: final stage runs %q: the base has no shell", file, in.args)
		}
	}
	uid, _, _ := strings.Cut(user, ":")
	if uid == "" || uid == "0" || uid == "root" {
		t.Errorf("%s: final stage USER %q: want a non-root user", file, user)
	}
	if !strings.HasPrefix(entry, "[") {
		t.Errorf("%s: ENTRYPOINT %s: want the exec form [\"/usr/local/bin/tiform\"]", file, entry)
	}
}

// TestDockerImageBuilds builds the image and runs `tiform version` in it when
// a container engine answers; it skips, saying so, where none runs.
func TestDockerImageBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the image build takes minutes")
	}
	docker, err := exec.LookPath("docker")
	if err != nil {
		t.Skip("no container engine: docker is not installed, so the image was not built")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, docker, "info").CombinedOutput(); err != nil {
		t.Skipf("no container engine: `docker info` failed, so the image was not built: %s", lastLine(string(out)))
	}
	tag := "tiform-test:" + strings.ToLower(strings.ReplaceAll(t.Name(), "/", "-"))
	if out, err := exec.CommandContext(ctx, docker, "build", "-t", tag, ".").CombinedOutput(); err != nil {
		t.Fatalf("docker build: %v\n%s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command(docker, "rmi", "-f", tag).Run() })
	out, err := exec.CommandContext(ctx, docker, "run", "--rm", tag, "version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "tiform ") {
		t.Fatalf("docker run %s version: %v\n%s", tag, err, out)
	}
	user, err := exec.CommandContext(ctx, docker, "image", "inspect", "-f", "{{.Config.User}}", tag).Output()
	if err != nil || strings.TrimSpace(string(user)) == "" || strings.HasPrefix(string(user), "0") {
		t.Fatalf("image user %q (%v): want non-root", user, err)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
