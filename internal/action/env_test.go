package action_test

import (
	"testing"

	"github.com/clarify-app/clarify/internal/action"
)

// TestEnvReadsChecksAsTrueOrFalse: CLARIFY_CHECKS turns pull requests' check runs on with
// "true", leaves them off when empty or "false", and anything else is a setting refused.
func TestEnvReadsChecksAsTrueOrFalse(t *testing.T) {
	for value, want := range map[string]bool{"": false, "false": false, "true": true} {
		env, err := action.EnvFrom(func(k string) string {
			if k == "CLARIFY_CHECKS" {
				return value
			}
			return ""
		})
		if err != nil || env.Checks != want {
			t.Errorf("CLARIFY_CHECKS=%q: Checks %v, %v; want %v", value, env.Checks, err, want)
		}
	}
	if _, err := action.EnvFrom(func(k string) string {
		if k == "CLARIFY_CHECKS" {
			return "yes"
		}
		return ""
	}); err == nil {
		t.Error(`CLARIFY_CHECKS="yes" was taken; want a refusal saying to write true or false`)
	}
}
