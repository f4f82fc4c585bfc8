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

// knownVersions are the PTX ISA versions that exist (13, Table 63; 9.1, 9.2).
var knownVersions = map[isa.Version]bool{}

func init() {
	for _, v := range [][2]uint8{{1, 0}, {1, 1}, {1, 2}, {1, 3}, {1, 4}, {1, 5}, {2, 0}, {2, 1}, {2, 2}, {2, 3},
		{3, 0}, {3, 1}, {3, 2}, {4, 0}, {4, 1}, {4, 2}, {4, 3}, {5, 0}, {6, 0}, {6, 1}, {6, 2}, {6, 3}, {6, 4}, {6, 5},
		{7, 0}, {7, 1}, {7, 2}, {7, 3}, {7, 4}, {7, 5}, {7, 6}, {7, 7}, {7, 8}, {8, 0}, {8, 1}, {8, 2}, {8, 3}, {8, 4},
		{8, 5}, {8, 6}, {8, 7}, {8, 8}, {9, 0}, {9, 1}, {9, 2}} {
		knownVersions[isa.Version{Major: v[0], Minor: v[1]}] = true
	}
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
	case !knownVersions[ver]:
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
