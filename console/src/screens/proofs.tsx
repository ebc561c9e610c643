export default function Screen() {
  return (
    <section>
      <h1>Proofs</h1>
    </section>
  );
}
