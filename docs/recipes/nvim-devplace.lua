-- devplace-clangd in Neovim's built-in LSP client (Neovim 0.7 or later, so
-- Debian 12's 0.7.2 works). Put this in ~/.config/nvim/init.lua, or load it
-- with `:luafile`. Run Neovim from the project root; the server finds
-- build/compile_commands.json there.
local devplace_client = nil

vim.api.nvim_create_autocmd('FileType', {
  pattern = { 'c', 'cpp' },
  callback = function(args)
    if not devplace_client then
      devplace_client = vim.lsp.start_client({
        name = 'devplace-clangd',
        cmd = { 'devplace-clangd', '--clang-tidy', '--compile-commands-dir=build' },
        root_dir = vim.fn.getcwd(),
      })
    end
    vim.lsp.buf_attach_client(args.buf, devplace_client)
  end,
})
-- The warnings show as diagnostics; their fixes are code actions:
-- :lua vim.lsp.buf.code_action()
