-- Neovim 0.7's built-in LSP client against `docdrift lsp` (test/lsp-neovim.test.ts starts it):
-- opens the reference page of a fixture copy, waits for docdrift's diagnostics, applies the
-- quick fix of the missing reference row at line 23, and writes what it saw as JSON to $DOCDRIFT_OUT.
local root = os.getenv('DOCDRIFT_ROOT')
local out = os.getenv('DOCDRIFT_OUT')
local result = { diagnostics = {}, error = nil }
local function finish()
  local f = io.open(out, 'w')
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd('qa!')
end
local client_id = vim.lsp.start_client({ name = 'docdrift', cmd = { os.getenv('DOCDRIFT_NODE'), os.getenv('DOCDRIFT_BIN'), 'lsp', '--stdio' }, root_dir = root })
vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/docs/reference/cli-commands.mdx'))
local buf = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(buf, client_id)
if not vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 50) then
  result.error = 'no diagnostics'
  return finish()
end
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
  table.insert(result.diagnostics, { code = code, lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col, source = d.source })
end
local client = vim.lsp.get_client_by_id(client_id)
local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, range = { start = { line = 22, character = 0 }, ['end'] = { line = 22, character = 0 } }, context = { diagnostics = {} } }
local response = client.request_sync('textDocument/codeAction', params, 10000, buf)
local action = response and response.result and response.result[1]
if not action then
  result.error = 'no code action'
  return finish()
end
result.title = action.title
vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
result.text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
finish()
