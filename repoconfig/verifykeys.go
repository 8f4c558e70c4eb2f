package repoconfig

import (
	"gopkg.in/yaml.v3"

	"github.com/clarify-app/clarify/render"
)

// verifyKeysExample is how verify_keys is written, for the problems that show it.
const verifyKeysExample = `["ed25519:BASE64"] (the line bot key public prints)`

// verifyKeys reads `verify_keys`: the public keys askers believe Clarify's workflow by
// (render/public.go), each "ed25519:BASE64", old and new both listed during a rotation.
func (p *parser) verifyKeys(n *yaml.Node) render.VerifyKeys {
	var out render.VerifyKeys
	seen := map[string]int{}
	for _, item := range p.list(n, "verify_keys", verifyKeysExample) {
		pub, err := render.ParseVerifyKey(item.Value)
		if err != nil {
			p.add(item, "verify_keys", "%v", err)
			continue
		}
		if !p.repeated(item, "verify_keys", item.Value, seen) {
			out = append(out, pub)
		}
	}
	return out
}
