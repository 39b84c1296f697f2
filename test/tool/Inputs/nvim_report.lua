-- Run after the recipe in a headless Neovim: waits for devplace's
-- diagnostics on the current buffer, writes them to $NVIM_REPORT, quits.
local ok = vim.wait(60000, function()
  for _, d in ipairs(vim.diagnostic.get(0)) do
    if d.message:find('CUDA device') then return true end
  end
  return false
end, 200)
local out = io.open(os.getenv('NVIM_REPORT'), 'w')
out:write(ok and 'diagnostics arrived\n' or 'no devplace diagnostic within 60 s\n')
for _, d in ipairs(vim.diagnostic.get(0)) do
  local code = d.user_data and d.user_data.lsp and d.user_data.lsp.code or d.code or ''
  out:write(string.format('%d:%d: %s [%s] (%s)\n', d.lnum + 1, d.col + 1, d.message, code, d.source or ''))
end
out:close()
vim.cmd('qa!')
