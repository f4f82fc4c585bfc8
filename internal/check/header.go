package check

// Module header rules: ptx-isa-9.0.txt 11.1.1 (.version), 11.1.2 (.target),
// 11.1.3 (.address_size).

import (
	"strings"

	"github.com/ptxvm/ptxvm/internal/isa"
	"github.com/ptxvm/ptxvm/ptx"
)

// newestVersion is the newest PTX ISA version ptxvm accepts.
var newestVersion = isa.Version{Major: 9, Minor: 2}

// newestMinor gives, per major version, the newest minor one of the PTX
// ISA versions that exist (13, Table 63; 9.1, 9.2): every minor version
// from 0 up to it exists. (A table, not a map filled at process start.)
var newestMinor = [...]uint8{1: 5, 2: 3, 3: 2, 4: 3, 5: 0, 6: 5, 7: 8, 8: 8, 9: 2}

// knownVersion reports whether v is a PTX ISA version that exists.
func knownVersion(v isa.Version) bool {
	return v.Major >= 1 && int(v.Major) < len(newestMinor) && v.Minor <= newestMinor[v.Major]
}

// header checks the module's leading directives and sets c.version and c.target.
func (c *checker) header() {
	items := c.mod.Items
	if len(items) == 0 {
		c.errorf(ptx.Pos{File: c.mod.File, Line: 1, Col: 1}, "module has no .version directive")
		return
	}
	v, ok := items[0].(*ptx.Version)
	if !ok {
		c.errorf(items[0].Position(), "a PTX module must begin with a .version directive")
	} else {
		c.checkVersion(v)
	}
	sawTarget := false
	for i, it := range items {
		switch it := it.(type) {
		case *ptx.Version:
			if i > 0 {
				c.errorf(it.Pos, "duplicate .version directive")
			}
		case *ptx.Target:
			if !sawTarget && i != 1 {
				c.errorf(it.Pos, ".target must immediately follow .version")
			}
			sawTarget = true
			c.checkTarget(it)
		case *ptx.AddressSize:
			if it.Size != 32 && it.Size != 64 {
				c.errorf(it.Pos, ".address_size must be 32 or 64, not %d", it.Size)
			}
			if c.version.Less(isa.Version{Major: 2, Minor: 3}) {
				c.errorf(it.Pos, "Feature '.address_size' requires PTX ISA .version 2.3 or later")
			}
		}
	}
	if !sawTarget {
		pos := ptx.Pos{File: c.mod.File, Line: 1, Col: 1}
		if v != nil {
			pos = v.Pos
		}
		c.errorf(pos, "a PTX module must have a .target directive after .version")
	}
	if c.opts.Arch != "" {
		t, ok := isa.ParseTarget(c.opts.Arch)
		if !ok {
			c.errorf(ptx.Pos{File: c.mod.File}, "unknown architecture %q", c.opts.Arch)
			return
		}
		if c.hasTgt && !t.Satisfies(c.target) {
			c.errorf(ptx.Pos{File: c.mod.File}, "module's .target %s is not compatible with the architecture %s", c.target, t)
		}
		c.target, c.hasTgt = t, true
	}
}

func (c *checker) checkVersion(v *ptx.Version) {
	ver := isa.Version{Major: uint8(v.Major), Minor: uint8(v.Minor)}
	c.version = ver
	switch {
	case v.Major > 255 || v.Minor > 255 || newestVersion.Less(ver):
		c.errorf(v.Pos, "unsupported .version %d.%d; the newest PTX ISA version supported is %s", v.Major, v.Minor, versionString(newestVersion))
	case !knownVersion(ver):
		c.errorf(v.Pos, "unknown PTX ISA .version %d.%d", v.Major, v.Minor)
	}
}

func (c *checker) checkTarget(t *ptx.Target) {
	arches := 0
	texmodes := 0
	for _, name := range t.Names {
		info, ok := isa.Targets[name]
		if !ok {
			c.errorf(t.Pos, "unknown target '%s'", name)
			continue
		}
		if c.version.Less(info.MinVersion) {
			c.errorf(t.Pos, "Target '%s' requires PTX ISA .version %s or later", name, versionString(info.MinVersion))
		}
		if info.MaxVersion != (isa.Version{}) && info.MaxVersion.Less(c.version) {
			c.errorf(t.Pos, "Target '%s' is not supported after PTX ISA .version %s", name, versionString(info.MaxVersion))
		}
		if strings.HasPrefix(name, "texmode_") {
			texmodes++
		}
		if arch, ok := isa.ParseTarget(name); ok {
			arches++
			if arches == 1 {
				c.target, c.hasTgt = arch, true
			}
		}
	}
	if arches == 0 {
		c.errorf(t.Pos, ".target must name a target architecture")
	}
	if arches > 1 {
		c.errorf(t.Pos, ".target names more than one target architecture")
	}
	if texmodes > 1 {
		c.errorf(t.Pos, "only one texturing mode may be declared")
	}
}
