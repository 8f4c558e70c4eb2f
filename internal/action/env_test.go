package action_test

import (
	"testing"

	"github.com/clarify-app/clarify/internal/action"
)

// TestEnvReadsSwitchesAsTrueOrFalse: CLARIFY_CHECKS (pull requests' check runs) and
// CLARIFY_MIRROR_ONLY (the mirror job's step) are on with "true", off when empty or
// "false", and anything else is a setting refused.
func TestEnvReadsSwitchesAsTrueOrFalse(t *testing.T) {
	read := map[string]func(action.Env) bool{
		"CLARIFY_CHECKS":      func(e action.Env) bool { return e.Checks },
		"CLARIFY_MIRROR_ONLY": func(e action.Env) bool { return e.MirrorOnly },
	}
	for name, on := range read {
		envWith := func(value string) (action.Env, error) {
			return action.EnvFrom(func(k string) string {
				if k == name {
					return value
				}
				return ""
			})
		}
		for value, want := range map[string]bool{"": false, "false": false, "true": true} {
			if env, err := envWith(value); err != nil || on(env) != want {
				t.Errorf("%s=%q: %v, %v; want %v", name, value, on(env), err, want)
			}
		}
		if _, err := envWith("yes"); err == nil {
			t.Errorf(`%s="yes" was taken; want a refusal saying to write true or false`, name)
		}
	}
}
