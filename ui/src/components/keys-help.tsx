// The `?` dialog: every key the pages answer, in one place (a native <dialog>: Escape closes it).
const KEYS: Array<[string, string]> = [
  ['j / ↓', 'next row of the tables on the page'],
  ['k / ↑', 'previous row'],
  ['Enter', 'open the focused row'],
  ['g', 'go to the overview'],
  ['t', 'switch between the light and the dark theme'],
  ['/', "search the list on the page (a Flow's watched objects)"],
  ['?', 'this list'],
  ['Esc', 'close a dialog without doing anything'],
];

export function KeysHelp() {
  return (
    <dialog id="keys-help" aria-labelledby="keys-help-title">
      <form method="dialog">
        <h2 id="keys-help-title">Keyboard</h2>
        <table class="keys-table">
          <tbody>
            {KEYS.map(([k, what]) => (
              <tr key={k}>
                <th scope="row">
                  <kbd>{k}</kbd>
                </th>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p class="muted">Keys are not taken while you type in a field or while a dialog is open.</p>
        <div class="dialog-buttons">
          <button type="submit" autofocus>
            Close
          </button>
        </div>
      </form>
    </dialog>
  );
}
