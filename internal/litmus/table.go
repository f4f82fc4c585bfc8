package litmus

import (
	"strconv"
	"strings"
)

// cell is one non-empty cell of the thread table.
type cell struct {
	text string
	pos  Pos
}

// isCondStart reports whether a line starts the final condition section.
func isCondStart(line string) bool {
	f := strings.TrimSpace(line)
	if strings.HasPrefix(strings.ToLower(f), "scopetree") {
		return true
	}
	for _, kw := range []string{"exists", "~exists", "~ exists", "forall", "locations", "filter", "scopeTree", "scopes", "~", "cond"} {
		if strings.HasPrefix(f, kw) {
			rest := f[len(kw):]
			if rest == "" || !isIdentChar(rest[0]) || kw == "~" {
				return true
			}
		}
	}
	return false
}

// parseTable reads the thread table from the line after the init block's
// closing brace (line is 1-based) and returns the 0-based index of the first
// line of the condition section.
func (p *parser) parseTable(line int) int {
	i := line // 0-based index of the line after "}"
	// Anything after "}" on its own line is ignored (it is blank in tests).
	headerDone := false
	var threads []*Thread
	for ; i < len(p.lines); i++ {
		raw := p.lines[i]
		if strings.TrimSpace(raw) == "" {
			continue
		}
		if isCondStart(raw) {
			break
		}
		body := strings.TrimRight(raw, " \t\r")
		if strings.HasSuffix(body, ";") {
			body = body[:len(body)-1]
		}
		cells := splitCells(body, i+1)
		if !headerDone {
			for k, c := range cells {
				th := p.parseThreadHeader(c, k)
				threads = append(threads, th)
			}
			headerDone = true
			p.cols = make([][]cell, len(threads))
			continue
		}
		if len(cells) > len(threads) {
			p.fail(cells[len(threads)].pos, "row has %d cells but the table has %d threads", len(cells), len(threads))
		}
		for k, c := range cells {
			if c.text != "" {
				p.cols[k] = append(p.cols[k], c)
			}
		}
	}
	if !headerDone {
		p.fail(Pos{i + 1, 1}, "missing thread table (a row of thread names such as \"P0 | P1 ;\")")
	}
	p.t.Threads = threads
	for k, th := range threads {
		p.decodeThread(th, p.cols[k])
	}
	if i >= len(p.lines) {
		p.fail(Pos{len(p.lines), 1}, "missing final condition (exists, ~exists or forall)")
	}
	return i
}

// splitCells splits a table row at "|" and trims each cell, recording the
// position of its first character.
func splitCells(body string, line int) []cell {
	var out []cell
	start := 0
	for j := 0; j <= len(body); j++ {
		if j < len(body) && body[j] != '|' {
			continue
		}
		seg := body[start:j]
		lead := len(seg) - len(strings.TrimLeft(seg, " \t"))
		out = append(out, cell{strings.TrimSpace(seg), Pos{line, start + lead + 1}})
		start = j + 1
	}
	return out
}

// parseThreadHeader parses "P0@cta 0,gpu 0" (any order of cta, cluster and
// gpu; spaces optional) or a bare "P0".
func (p *parser) parseThreadHeader(c cell, k int) *Thread {
	name, place, hasAt := strings.Cut(c.text, "@")
	name = strings.TrimSpace(name)
	idx := k
	if len(name) > 1 && (name[0] == 'P' || name[0] == 'T') {
		if n, err := strconv.Atoi(name[1:]); err == nil {
			idx = n
		} else {
			p.fail(c.pos, "bad thread name %q (expected P0, P1, ...)", name)
		}
	} else if n, err := strconv.Atoi(name); err == nil {
		idx = n
	} else {
		p.fail(c.pos, "bad thread name %q (expected P0, P1, ...)", name)
	}
	if idx != k {
		p.fail(c.pos, "thread %q is in column %d; threads must be P0, P1, ... in order", name, k)
	}
	th := &Thread{Index: idx, Name: "P" + strconv.Itoa(idx), Pos: c.pos, RegInit: map[string]int64{}, Labels: map[string]int{}, regs: map[string]bool{}}
	th.CTA, th.Cluster, th.GPU = -1, -1, -1
	if hasAt {
		th.Placed = true
		f := strings.FieldsFunc(place, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
		for j := 0; j < len(f); j++ {
			key := strings.ToLower(f[j])
			// "cta0" or "cta 0"
			num := ""
			for _, kw := range []string{"cta", "cluster", "gpu", "block", "device"} {
				if strings.HasPrefix(key, kw) && len(key) > len(kw) {
					num = key[len(kw):]
					key = kw
				}
			}
			if num == "" {
				if j+1 >= len(f) {
					p.fail(c.pos, "missing number after %q in thread position", f[j])
				}
				j++
				num = f[j]
			}
			n, err := strconv.Atoi(num)
			if err != nil || n < 0 {
				p.fail(c.pos, "bad number %q in thread position", num)
			}
			switch key {
			case "cta", "block":
				th.CTA = n
			case "cluster":
				th.Cluster = n
			case "gpu", "device":
				th.GPU = n
			default:
				p.fail(c.pos, "unknown thread position %q (expected cta, cluster or gpu)", f[j-1])
			}
		}
	}
	return th
}
