-- Neovim 0.8+ with its built-in LSP client: start devplace-clangd for C++.
-- Put this in ~/.config/nvim/init.lua (or a file under plugin/).
vim.api.nvim_create_autocmd('FileType', {
  pattern = { 'c', 'cpp' },
  callback = function(args)
    local root = vim.fs.dirname(vim.fs.find(
      { 'compile_commands.json', 'build/compile_commands.json', '.clangd', '.git' },
      { upward = true, path = vim.api.nvim_buf_get_name(args.buf) })[1])
    vim.lsp.start({
      name = 'devplace-clangd',
      cmd = { 'devplace-clangd', '--clang-tidy', '--compile-commands-dir=build' },
      root_dir = root,
    })
  end,
})
-- Fixes arrive as code actions: vim.lsp.buf.code_action() on the warning.
