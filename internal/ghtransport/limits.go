package ghtransport

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Kinds of Limit: which of GitHub's rate limits refused a request.
const (
	LimitPrimary   = "primary"
	LimitSecondary = "secondary"
)

// SecondaryLimitWait is how long an installation holds off after a secondary limit that
// names no time (no Retry-After, x-ratelimit-remaining not 0): GitHub asks to "wait for
// at least one minute". A request refused again is handed back rather than retried
// sooner (RetryOptions.MaxTotalWait), which is the backoff GitHub asks for after that.
// https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#exceeding-the-rate-limit
const SecondaryLimitWait = time.Minute

// spreadBelow is how few primary-limit requests may be left before the rest are spread
// evenly until the reset, instead of spent and refused.
const spreadBelow = 100

// limitBodyPeek bounds how much of a 403 is read to tell a rate limit from a refusal;
// GitHub's error bodies are a few hundred bytes.
const limitBodyPeek = 16 << 10

// Limit is what one answer of GitHub says of the installation's rate limits: the one
// reading of its signals, which the retries and the pacer both act on.
type Limit struct {
	// Kind is LimitPrimary or LimitSecondary when GitHub refused the request for a rate
	// limit, "" otherwise.
	Kind string
	// Wait is how long GitHub asks before the refused request is sent again: Retry-After,
	// the time to x-ratelimit-reset (0 when that is past on our clock), or
	// SecondaryLimitWait for a secondary limit that names no time.
	Wait time.Duration
	// Named says GitHub named the wait (Retry-After, or x-ratelimit-reset with
	// x-ratelimit-remaining 0); a secondary limit that names none is a strike (Strikes).
	Named bool
	// Spread is the spacing that stretches the primary limit's last requests until its
	// reset, when fewer than spreadBelow are left.
	Spread time.Duration
}

// Hold is how long every request of the installation holds off after this answer.
func (l Limit) Hold() time.Duration { return max(l.Wait, l.Spread) }

// ReadLimit reads GitHub's rate-limit signals in an answer: a 429, or a 403 with
// Retry-After, x-ratelimit-remaining 0 or a secondary-limit message, is a refusal (any
// other 403 is a permission that waiting will not grant); x-ratelimit-remaining and
// x-ratelimit-reset say how soon the primary limit runs out.
func ReadLimit(resp *http.Response, now time.Time) Limit {
	var l Limit
	if left, ok := headerInt(resp.Header, "X-RateLimit-Remaining"); ok && left < spreadBelow {
		if reset, ok := headerInt(resp.Header, "X-RateLimit-Reset"); ok {
			l.Spread = max(0, time.Unix(reset, 0).Sub(now)/time.Duration(left+1))
		}
	}
	if !isRateLimit(resp) {
		return l
	}
	if d, ok := retryAfter(resp.Header, now); ok {
		l.Kind, l.Wait, l.Named = LimitSecondary, d, true
		return l
	}
	if resp.Header.Get("X-RateLimit-Remaining") == "0" {
		if reset, ok := headerInt(resp.Header, "X-RateLimit-Reset"); ok {
			l.Kind, l.Wait, l.Named = LimitPrimary, max(0, time.Unix(reset, 0).Sub(now)), true
			return l
		}
	}
	l.Kind, l.Wait = LimitSecondary, SecondaryLimitWait
	return l
}

// isRateLimit tells a rate limit from a refusal. A 429 is always one; a 403 is one when
// GitHub says so in a header or in the message, and otherwise a permission that waiting
// will not grant. The body is read only in that last case, and put back for the caller.
func isRateLimit(resp *http.Response) bool {
	switch resp.StatusCode {
	case http.StatusTooManyRequests:
		return true
	case http.StatusForbidden:
	default:
		return false
	}
	if resp.Header.Get("X-RateLimit-Remaining") == "0" || resp.Header.Get("Retry-After") != "" {
		return true
	}
	if resp.Body == nil {
		return false
	}
	peek, err := io.ReadAll(io.LimitReader(resp.Body, limitBodyPeek))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(peek), resp.Body), resp.Body}
	if err != nil {
		return false
	}
	// "You have exceeded a secondary rate limit…"; before 2022, "…an abuse detection
	// mechanism", with documentation_url ending "#abuse-rate-limits".
	msg := strings.ToLower(string(peek))
	return strings.Contains(msg, "secondary rate limit") || strings.Contains(msg, "secondary-rate-limits") ||
		strings.Contains(msg, "abuse detection") || strings.Contains(msg, "abuse-rate-limits")
}

// retryAfter reads Retry-After, which GitHub gives in seconds; an HTTP date is read too.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := h.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil && s >= 0 {
		return time.Duration(s) * time.Second, true
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(0, at.Sub(now)), true
	}
	return 0, false
}

func headerInt(h http.Header, key string) (int64, bool) {
	n, err := strconv.ParseInt(h.Get(key), 10, 64)
	return n, err == nil
}
